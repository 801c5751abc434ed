import fs from "node:fs";
import path from "node:path";
import { ExportWriteError, writeExportFile } from "@/lib/export/writeExportFile";
import { z } from "zod";
import { runAgreementSchema } from "@/lib/api/agreementSchemas";
import { runDetailSchema, uploadResultSchema } from "@/lib/api/apiSchemas";
import { formatAgreementTable } from "@/lib/labels/agreementTable";
import { formatPeopleAgreementTable } from "@/lib/labels/peopleAgreementTable";
import { alignOnServer } from "./remoteAlign";
import { ApiClientError, type ApiClient } from "./apiClient";
import type { EvalArgs } from "./evalArgs";
import { formatAggregates } from "./formatAggregates";
import { createProgressBar } from "./progressBar";
import { runRegressionGate } from "./regressionGate";
import { namesOfflineJudge, runRequestOfArgs } from "./runRequestOfArgs";
import { checkThresholds } from "./thresholdCheck";

type RemoteRun = z.output<typeof runDetailSchema>;

const ENDED = new Set(["completed", "cancelled", "failed", "paused"]);

const labelImportSchema = z.object({ ok: z.literal(true), records: z.number(), changed: z.number() });

export type RemoteEvalIo = { pollMs?: number; log: (line: string) => void; error: (line: string) => void };

/**
 * `npm run eval -- --server URL`: the same command against a team's server. The dataset is uploaded (or named
 * with --dataset-id), the run is started there (judged by the server and its workers, with the server's LLM
 * key), followed with the same progress bar, and its aggregates, thresholds and --out come from the server.
 * With --baseline, the regression gate then compares it with the baseline (regressionGate.ts).
 * Exit codes as locally: 0 every threshold met (and no real regression), 1 a threshold missed or a metric
 * really regressed, 2 bad usage or input (a refused key or file included), 3 the run did not complete or
 * --out could not be written.
 */
export async function runRemoteEval(args: EvalArgs, client: ApiClient, io: RemoteEvalIo): Promise<number> {
  const started = Date.now();
  let run: RemoteRun;
  if (args.resume) {
    run = await client.json("GET", `/api/v1/runs/${encodeURIComponent(args.resume)}`, runDetailSchema);
    if (run.status === "failed" || run.status === "paused")
      run = await client.json("POST", `/api/v1/runs/${encodeURIComponent(args.resume)}/resume`, runDetailSchema);
  } else {
    const datasetId = args.datasetId ?? (await uploadDataset(args, client, io));
    const judge = namesOfflineJudge(args.judgeModel) ? "heuristic" : "model";
    run = await client.json("POST", "/api/v1/runs", runDetailSchema, runRequestOfArgs(args, datasetId, judge));
  }
  io.log(`Run ${run.id} "${run.name}": ${client.base}${run.url}`);
  if (args.labels) {
    // Once the run is stored, as locally: labels on its own custom and G-Eval judges are then taken.
    const labels = await client.upload(`/api/v1/datasets/${run.datasetId}/labels`, args.labels, labelImportSchema);
    io.log(`Labels: ${labels.records} read from ${args.labels}, ${labels.changed} new or changed.`);
  }
  run = await follow(client, run, args.quiet, io.pollMs ?? 1000);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const judge =
    run.judge.provider === "heuristic" ? "offline heuristic judge" : `${run.judge.provider} ${run.judge.model}`;
  io.log(`\nRun ${run.id} "${run.name}": ${run.status} in ${seconds} s. Judge: ${judge}.`);
  if (run.errorMessage) io.log(run.errorMessage);
  io.log(formatAggregates(run.aggregates));
  const { judges, people } = await client.json("GET", `/api/v1/runs/${run.id}/agreement`, runAgreementSchema);
  // As locally: the table only when the dataset has labels on what this run judged.
  if (judges.some((judge) => judge.labelled + judge.errors + judge.otherResponse > 0))
    io.log("\nAgreement with human labels\n" + formatAgreementTable(judges));
  if (people.length > 0) io.log("\nAgreement between people\n" + formatPeopleAgreementTable(people));
  let exportFailed = false;
  if (args.out) {
    const format = args.out.toLowerCase().endsWith(".csv") ? "csv" : "json";
    try {
      await writeExportFile(args.out, client.download(`/api/v1/runs/${run.id}/results?format=${format}`));
      io.log(`Results written to ${args.out}`);
    } catch (error) {
      if (!(error instanceof ExportWriteError) && !(error instanceof ApiClientError)) throw error;
      io.error(
        `Error: ${error.message}. The run is stored on the server (${run.id}); export it again with --resume ${run.id} --out FILE.`,
      );
      exportFailed = true;
    }
  }
  const verdicts = checkThresholds(run.aggregates, args.thresholds);
  for (const v of verdicts)
    io.log(
      `${v.passed ? "PASS" : "FAIL"}  ${v.aggregateName} = ${v.value === null ? "n/a" : v.value.toFixed(3)} (threshold ${v.threshold})`,
    );
  if (run.status !== "completed" || exportFailed) return 3;
  const misses = verdicts
    .filter((v) => !v.passed)
    .map((v) => `${v.aggregateName} = ${v.value === null ? "n/a" : v.value.toFixed(3)} (threshold ${v.threshold})`);
  const gate = args.gate
    ? await runRegressionGate(args.gate, client, run.id, misses, { ...io, quiet: args.quiet })
    : { regressed: false };
  const aligned = args.align ? await alignOnServer(client, run, args.align, io) : 0;
  if (aligned !== 0) return aligned;
  return misses.length === 0 && !gate.regressed ? 0 : 1;
}

async function uploadDataset(args: EvalArgs, client: ApiClient, io: RemoteEvalIo): Promise<string> {
  const file = args.dataset ?? "";
  if (!fs.existsSync(file)) throw new ApiClientError(0, "invalid_upload", `no such file: ${file}`);
  // Named by --dataset-name (a CI build's own name, e.g. with its branch and commit), else after the file.
  const query = new URLSearchParams({
    filename: path.basename(file),
    ...(args.datasetName ? { name: args.datasetName } : {}),
  });
  const result = await client.upload(`/api/v1/datasets?${query}`, file, uploadResultSchema);
  if (result.notice) io.log(result.notice);
  io.log(`Uploaded ${file}: ${result.dataset.rowCount} rows (dataset ${result.dataset.id}).`);
  return result.dataset.id;
}

/** Polls the run until it ends, drawing the progress bar from its counts. */
async function follow(client: ApiClient, first: RemoteRun, quiet: boolean, pollMs: number): Promise<RemoteRun> {
  const bar = quiet ? null : createProgressBar(process.stderr, "judging");
  let run = first;
  while (!ENDED.has(run.status)) {
    const { judgments } = run.progress;
    bar?.update(judgments.done + judgments.error, judgments.total - judgments.skipped, `${judgments.error} errors`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    run = await client.json("GET", `/api/v1/runs/${run.id}`, runDetailSchema);
  }
  const { judgments } = run.progress;
  bar?.update(judgments.done + judgments.error, judgments.total - judgments.skipped, `${judgments.error} errors`);
  bar?.finish();
  return run;
}
