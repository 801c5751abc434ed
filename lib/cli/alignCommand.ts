import { storedComparison } from "@/lib/alignment/heldOutComparison";
import { readSpendingLimits } from "@/lib/config/spendingLimits";
import type { Db } from "@/lib/db/client";
import type { RunRecord } from "@/lib/db/runs/runQueries";
import { alignRunJudge } from "@/lib/engine/alignment/alignRunJudge";
import { previewAlignment } from "@/lib/engine/alignment/previewAlignment";
import { createEngineDeps } from "@/lib/engine/engineDeps";
import { readLlmConfig } from "@/lib/llm/llmConfig";
import { formatComparison, runMetricNamed, writeAlignedJudge } from "./alignedJudgeOutput";

/**
 * `npm run eval -- --align JUDGE`: after the run, the judge is aligned with the dataset's labels as the Align
 * page does it (same split, examples, measurement and store), both versions' held-out agreement and the paired
 * test are printed, and the aligned judge's definition is written to a JSON file that `--custom-judges FILE`
 * (a custom judge, or a built-in one's aligned version) or `--g-eval @FILE` (a G-Eval judge's) takes.
 * Returns the exit code: 0 when measured, 2 when it cannot start, 3 when measuring failed.
 */
export async function alignFromCli(
  db: Db,
  run: RunRecord,
  request: { judge: string; guidance?: string; out?: string },
  io: { log(line: string): void; error(line: string): void },
): Promise<number> {
  const metric = runMetricNamed(run.config.metrics, request.judge);
  if (!metric) {
    io.error(
      `Error: --align ${request.judge}: no judge of this run has that name; its judges: ${run.config.metrics.join(", ")}`,
    );
    return 2;
  }
  const prices = readLlmConfig()?.prices ?? {};
  const preview = await previewAlignment(db, run, metric, prices);
  if (preview.problem) {
    io.error(`Error: ${metric} cannot be aligned: ${preview.problem}`);
    return 2;
  }
  const { estimate } = preview;
  const maxUsd = readSpendingLimits().maxRunUsd;
  if (maxUsd !== null && estimate.usd !== null && estimate.usd > maxUsd) {
    io.error(
      `Error: aligning ${metric} is estimated at $${estimate.usd.toFixed(2)}, above ASSAY_MAX_RUN_USD ($${maxUsd})`,
    );
    return 2;
  }
  io.log(
    `\nAligning ${metric} with its labels (${preview.labels.yes} yes, ${preview.labels.no} no): ${preview.training} training labels (${preview.examples} shown as examples), ${preview.heldOut} held out and never shown.`,
  );
  io.log(
    `Estimate: ${estimate.llmCalls} LLM calls, about ${estimate.inputTokens} input and ${estimate.outputTokens} output tokens, ${estimate.usd === null ? "cost unknown" : `about $${estimate.usd.toFixed(2)}`}.`,
  );
  const deps = createEngineDeps(db, { ...run, config: { ...run.config, refreshCache: false } }, { workerKind: "cli" });
  const aligned = await alignRunJudge(
    db,
    run,
    { judge: deps.judge, costOf: deps.costOf, maxUsd },
    { metric, seed: preview.seed, guidance: request.guidance ?? null },
  );
  const comparison = storedComparison(aligned.comparison);
  if (aligned.status !== "measured" || !comparison) {
    io.error(`Error: measuring ${aligned.judgeName} failed: ${aligned.errorMessage ?? "no comparison"}`);
    return 3;
  }
  io.log(formatComparison(comparison));
  writeAlignedJudge(aligned, request.out, io);
  return 0;
}
