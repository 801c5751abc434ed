// npm run eval -- --dataset file.jsonl --judges correctness,groundedness --threshold correctness=0.8 --out results.json
// Runs the same engine as the web app, without the web server, and stores the
// run in the same database so it shows in the dashboard. Exit codes: 0 all
// thresholds met, 1 a threshold missed, 2 bad usage or input, 3 the run failed
// or its results could not be written to --out (the file is then left absent, never half-written).
import fs from "node:fs";
import { parseEvalArgs, EVAL_USAGE, UsageError, type EvalArgs } from "../lib/cli/evalArgs";
import { useLowMemoryRuntime } from "../lib/runtime/lowMemoryRuntime";
import { createProgressBar } from "../lib/cli/progressBar";
import { checkThresholds } from "../lib/cli/thresholdCheck";
import { formatAggregates } from "../lib/cli/formatAggregates";
import { createApiClient } from "../lib/cli/apiClient";
import { reportKnownCliError } from "../lib/cli/cliErrors";
import { runRemoteEval } from "../lib/cli/remoteEval";
import { getRunAggregates } from "../lib/db/judgments/aggregateQueries";
import { getRunAgreement } from "../lib/db/labels/agreementQueries";
import { closeDb, createDb, type Db } from "../lib/db/client";
import { resolveDatabaseUrl } from "../lib/db/databaseUrl";
import { createDatasetSink } from "../lib/db/datasets/datasetWrites";
import { applyPendingMigrations } from "../lib/db/migrations/applyMigrations";
import { getRunBudget, setRunBudget, type RunBudget } from "../lib/db/runs/runBudget";
import { estimateRunSpending } from "../lib/engine/runEstimate";
import { deepEvalCallShape } from "../lib/metrics/deepEvalCallCounts";
import { deepEvalSettings } from "../lib/contract/deepEvalSettings";
import { gEvalStepWriters } from "../lib/contract/gEvalMetric";
import { reopenRun } from "../lib/db/runs/runLifecycle";
import { getRun, getRunProgress, type RunRecord } from "../lib/db/runs/runQueries";
import { createRun } from "../lib/engine/createRun";
import { judgeOfRequest, runConfigOfRequest, runRequestSchema } from "../lib/engine/runRequest";
import { namesOfflineJudge, runRequestOfArgs } from "../lib/cli/runRequestOfArgs";
import { createEngineDeps } from "../lib/engine/engineDeps";
import { runEvaluation, type RunOutcome } from "../lib/engine/runEvaluation";
import { runResultsCsv, runResultsJson } from "../lib/export/runResults";
import { ExportWriteError, writeExportFile } from "../lib/export/writeExportFile";
import { describeRowIssue } from "../lib/ingest/errors";
import { costBudgetProblem } from "../lib/engine/budgetFields";
import { ingestFile } from "../lib/ingest/ingestFile";
import { formatAgreementTable } from "../lib/labels/agreementTable";
import { formatPeopleAgreementTable } from "../lib/labels/peopleAgreementTable";
import { getRunPeopleAgreement } from "../lib/labels/runPeopleAgreement";
import { offlineUnavailableReason } from "../lib/judges/heuristic";
import { readLlmConfig } from "../lib/llm/llmConfig";
import { concurrencyAboveEndpointLimit } from "../lib/llm/concurrencyNote";
import { checkRunSpending, readSpendingLimits } from "../lib/config/spendingLimits";
import { alignFromCli } from "../lib/cli/alignCommand";
import { importLabelsFromCli } from "../lib/cli/labelsArg";
import { alignedPromptChars } from "../lib/alignment/alignmentEstimate";
import { decodeCustomJudge, trialsOf } from "../lib/db/runs/storedRun";

class InputError extends Error {}

const STORE_PAUSE_WAIT_S = 5;

async function main(argv: string[]): Promise<number> {
  const args = parseEvalArgs(argv);
  // Against a team's server: nothing here touches a database or a model endpoint.
  if (args.server)
    return runRemoteEval(args, createApiClient(args.server, process.env.ASSAY_TOKEN?.trim() || undefined), {
      log: (line) => console.log(line),
      error: (line) => console.error(line),
    });
  // Before the migrations and the database client compile their WebAssembly.
  useLowMemoryRuntime();
  const url = resolveDatabaseUrl();
  await applyPendingMigrations(url);
  const db = createDb(url);
  try {
    const runId = args.resume ?? (await startRun(db, args));
    const run = await getRun(db, runId);
    if (!run) throw new InputError(`run ${runId} does not exist`);
    if (args.resume && args.labels) {
      const labels = await importLabelsFromCli(db, run.datasetId, args.labels);
      if (!labels.ok) throw new InputError(labels.message);
      console.log(labels.message);
    }
    const started = Date.now();
    // A finished run has nothing left to judge: re-exporting it (the command printed when an export failed) needs
    // no model endpoint.
    const finished = args.resume && (run.status === "completed" || run.status === "cancelled") ? run.status : null;
    // A budget given with it is still held to the server's limits (refused above them), as on any resume.
    const budgetGiven = Object.values(args.budget).some((value) => value !== undefined);
    if (finished && budgetGiven) await setRunBudget(db, runId, await resumeBudget(db, run, args));
    const outcome: RunOutcome = finished
      ? { runId, status: finished, judgments: (await getRunProgress(db, runId)).judgments }
      : await judgeRun(db, run, args);
    const metrics = run.config.metrics;
    const aggregates = await getRunAggregates(db, runId, metrics);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `\nRun ${runId} "${run.name}": ${outcome.status} in ${seconds} s. Judge: ${run.judgeProvider === "heuristic" ? "offline heuristic judge" : `${run.judgeProvider} ${run.judgeModel}`}.`,
    );
    console.log(formatAggregates(aggregates));
    const agreement = await getRunAgreement(db, { id: runId, datasetId: run.datasetId });
    // Also when every label was given on another response (a generating run): the table says how many it left out.
    if (agreement.some((judge) => judge.labelled + judge.errors + judge.otherResponse > 0))
      console.log("\nAgreement with human labels\n" + formatAgreementTable(agreement));
    const people = await getRunPeopleAgreement(db, { id: runId, datasetId: run.datasetId }, agreement);
    if (people.length > 0) console.log("\nAgreement between people\n" + formatPeopleAgreementTable(people));
    let exportFailed = false;
    if (args.out) {
      const exportStarted = Date.now();
      try {
        await writeExportFile(
          args.out,
          args.out.toLowerCase().endsWith(".csv") ? runResultsCsv(db, runId) : runResultsJson(db, runId),
        );
        console.log(`Results written to ${args.out} in ${((Date.now() - exportStarted) / 1000).toFixed(1)} s`);
      } catch (error) {
        if (!(error instanceof ExportWriteError)) throw error;
        // The run itself is stored; only the file is missing. Said plainly, and the exit code says it too.
        console.error(
          `Error: ${error.message}. The run is stored (${runId}); export it again with --resume ${runId} --out FILE.`,
        );
        exportFailed = true;
      }
    }
    const thresholds = { ...run.config.thresholds, ...args.thresholds };
    const verdicts = checkThresholds(aggregates, thresholds);
    for (const v of verdicts)
      console.log(
        `${v.passed ? "PASS" : "FAIL"}  ${v.aggregateName} = ${v.value === null ? "n/a" : v.value.toFixed(3)} (threshold ${v.threshold})`,
      );
    if (outcome.status !== "completed" || exportFailed) return 3;
    const aligned = args.align
      ? await alignFromCli(db, run, args.align, { log: (l) => console.log(l), error: (l) => console.error(l) })
      : 0;
    if (aligned !== 0) return aligned;
    return verdicts.every((v) => v.passed) ? 0 : 1;
  } finally {
    await closeDb(db);
  }
}

/** Judges what is left of a run (all of it, for a new one), with a progress bar unless --quiet. */
async function judgeRun(db: Db, run: RunRecord, args: EvalArgs): Promise<RunOutcome> {
  const runId = run.id;
  const bar = args.quiet ? null : createProgressBar(process.stderr, "judging");
  const deps = createEngineDeps(db, run, {
    workerKind: "cli",
    // On stdout: stderr carries only the progress bar and errors.
    onResumed: ({ pendingJudgments }) =>
      console.log(`Resumed run ${runId} after an interruption; ${pendingJudgments} judgments were pending.`),
    onProgress: (p) => {
      const total = p.phase === "generating" ? p.generations.total : p.judgments.total - p.judgments.skipped;
      const done =
        p.phase === "generating" ? p.generations.done + p.generations.error : p.judgments.done + p.judgments.error;
      bar?.update(done, total, p.phase === "generating" ? "(generating responses)" : `${p.judgments.error} errors`);
    },
  });
  const llmConfig = readLlmConfig();
  const callsModels = run.judgeProvider !== "heuristic" || run.generationModel !== null;
  const overLimit =
    llmConfig && callsModels ? concurrencyAboveEndpointLimit(run.concurrency, llmConfig.maxInFlight) : null;
  if (overLimit) console.error(overLimit);
  // A failed or paused run is made runnable again (with any budget given raised); its finished judgments stay.
  if (args.resume) await setRunBudget(db, runId, await resumeBudget(db, run, args));
  if (args.resume && (run.status === "failed" || run.status === "paused")) await reopenRun(db, runId);
  await printEstimate(db, run);
  let outcome = await runEvaluation(run, deps, { takeover: Boolean(args.resume) });
  // Paused because the database stayed busy: wait and carry on by ourselves, as the web server's resumer does.
  while (outcome.status === "paused" && outcome.pause?.reason === "store_unavailable") {
    console.error(`The database is busy; run ${runId} is paused and resumes in ${STORE_PAUSE_WAIT_S} s.`);
    await new Promise((resolve) => setTimeout(resolve, STORE_PAUSE_WAIT_S * 1000));
    outcome = await runEvaluation(run, deps, { takeover: true });
  }
  bar?.finish();
  if (outcome.status === "paused")
    console.log(
      `Run ${runId} ${outcome.pause?.message ?? "is paused."} Resume with: npm run eval -- --resume ${runId} --budget-calls N (or --budget-tokens, --budget-usd)`,
    );
  if (outcome.status === "busy")
    throw new InputError(`run ${runId} is being executed by another process; use --resume to take it over`);
  return outcome;
}

async function startRun(db: Db, args: EvalArgs): Promise<string> {
  const llmConfig = readLlmConfig();
  const heuristic = namesOfflineJudge(args.judgeModel) || (!args.judgeModel && !llmConfig);
  if (heuristic && !args.judgeModel)
    console.error("No OPENAI_API_KEY or OPENAI_BASE_URL: using the offline heuristic judge.");
  // Named on the command line, an LLM-only score metric on the offline judge is a mistake to say, not a column of skips.
  const unavailable = heuristic
    ? [
        ...args.metrics.flatMap((metric) => offlineUnavailableReason(metric) ?? []),
        ...args.gEvalJudges.map(
          (judge) => `g_eval ${judge.name} needs an LLM judge: the offline heuristic judge has no rule for it`,
        ),
      ]
    : [];
  if (unavailable.length > 0)
    throw new UsageError(
      `${unavailable.join("; ")}. Set OPENAI_API_KEY or OPENAI_BASE_URL (and --judge-model), or leave them out.`,
    );
  const judgeKind = heuristic ? "heuristic" : "model";
  const judge = judgeOfRequest({ judge: judgeKind, judgeModel: args.judgeModel }, llmConfig);
  if (!judge)
    throw new InputError(
      "--judge-model needs a model endpoint: set OPENAI_API_KEY or OPENAI_BASE_URL, or use --judge-model heuristic",
    );
  // The request a server would take (POST /api/v1/runs), checked by the same schema before anything is
  // imported; the dataset it names is set once the file is in.
  const checked = runRequestSchema.safeParse(runRequestOfArgs(args, args.datasetId ?? "(the file's)", judgeKind));
  if (!checked.success)
    throw new UsageError(checked.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "));
  const budget = checked.data.budget;
  // Before anything is imported: a cost budget on an unpriced model could never stop the run.
  const costProblem = costBudgetProblem(budget, judge, llmConfig?.prices ?? {}, args.generateModel ?? null);
  if (costProblem) throw new InputError(costProblem);
  // The server-wide limits bind the machine's operator too (the per-user count of runs is for signed-in users).
  const allowed = checkRunSpending(
    { budget, models: { judge, generationModel: args.generateModel ?? null }, typed: true },
    readSpendingLimits(),
    llmConfig?.prices ?? {},
  );
  if (!allowed.ok) throw new InputError(allowed.problems.join("\n  "));
  let datasetId = args.datasetId;
  if (args.dataset) {
    if (!fs.existsSync(args.dataset)) throw new InputError(`no such file: ${args.dataset}`);
    const result = await ingestFile(args.dataset, {
      mode: "strict",
      sink: createDatasetSink(db),
      ...(args.datasetName ? { name: args.datasetName } : {}),
    });
    // How another tool's file was read: on stdout with the report, or first among the errors.
    if (result.ok && result.notice) console.log(result.notice);
    // Unknown columns (often a misspelt one, whose metrics then skip every row) are said here as in the upload panel.
    if (result.ok) for (const warning of result.warnings) console.log(`Warning: ${warning}`);
    if (!result.ok) {
      const lines = [result.notice, result.fileError, ...result.issues.map(describeRowIssue)].filter(Boolean);
      if (result.issueCount > result.issues.length) lines.push(`…and ${result.issueCount - result.issues.length} more`);
      // Unknown columns matter most when the upload failed: they often say why.
      lines.push(...result.warnings.map((warning) => `Warning: ${warning}`));
      throw new InputError(`${args.dataset} was not imported:\n  ${lines.join("\n  ")}`);
    }
    datasetId = result.datasetId;
  }
  // parseEvalArgs accepts exactly one of --dataset, --dataset-id and --resume, and --resume does not come here.
  if (!datasetId) throw new UsageError("give exactly one of --dataset, --dataset-id or --resume");
  const runId = await createRun(db, runConfigOfRequest({ ...checked.data, datasetId }, judge), {
    budget: allowed.budget,
  });
  if (args.labels) {
    // After the run is stored: labels on its own custom and G-Eval judges are only taken once a run defines them.
    const labels = await importLabelsFromCli(db, datasetId, args.labels);
    if (!labels.ok)
      throw new InputError(`${labels.message}
  Run ${runId} is stored, not judged yet: fix the file, then --resume ${runId} --labels FILE.`);
    console.log(labels.message);
  }
  return runId;
}

/** A resumed run's budget: the one stored, raised by any given, within the server-wide limits (or refused). */
async function resumeBudget(db: Db, run: RunRecord, args: EvalArgs): Promise<RunBudget> {
  const stored = await getRunBudget(db, run.id);
  const budget: RunBudget = {
    calls: args.budget.calls !== undefined ? args.budget.calls : stored.calls,
    tokens: args.budget.tokens !== undefined ? args.budget.tokens : stored.tokens,
    usd: args.budget.usd !== undefined ? args.budget.usd : stored.usd,
  };
  const allowed = checkRunSpending(
    {
      budget,
      models: { judge: { provider: run.judgeProvider, model: run.judgeModel }, generationModel: run.generationModel },
      typed: args.budget.usd !== undefined,
    },
    readSpendingLimits(),
    readLlmConfig()?.prices ?? {},
  );
  if (!allowed.ok) throw new InputError(allowed.problems.join("\n  "));
  return allowed.budget;
}

/**
 * What the run's pending work should cost, said before it starts (prices from ASSAY_LLM_PRICES); with
 * DeepEval metrics, the calls of both call structures, so the choice is made knowing its price.
 */
async function printEstimate(db: Db, run: RunRecord): Promise<void> {
  const heuristic = run.judgeProvider === "heuristic";
  const deepEval = deepEvalSettings(run.config.deepEval);
  const options = {
    judgeModel: run.judgeModel,
    generationModel: run.generationModel,
    chunkMode: run.config.chunkMode,
    heuristic,
    prices: readLlmConfig()?.prices ?? {},
    trials: trialsOf(run.config),
    gEvalStepWriters: gEvalStepWriters(run.config.gEvalJudges ?? []),
    // An aligned judge's examples are in every call of it.
    promptChars: alignedPromptChars({
      customJudges: run.customJudges.map(decodeCustomJudge),
      gEvalJudges: run.config.gEvalJudges ?? [],
    }),
  };
  const estimate = await estimateRunSpending(db, run.id, { ...options, deepEval });
  const otherStructure = deepEval.callStructure === "deepeval" ? "folded" : "deepeval";
  const other = run.config.metrics.some((metric) =>
    deepEvalCallShape(metric, { ...deepEval, callStructure: "deepeval" }),
  )
    ? await estimateRunSpending(db, run.id, {
        ...options,
        deepEval: { ...deepEval, exact: false, callStructure: otherStructure },
      })
    : null;
  const cost =
    estimate.costUsd === null
      ? "cost unknown (no price for the model in ASSAY_LLM_PRICES)"
      : `about $${estimate.costUsd.toFixed(2)}`;
  console.log(
    `Estimate: ${estimate.llmCalls} LLM calls, about ${estimate.inputTokens} input and ${estimate.outputTokens} output tokens, ${cost}.`,
  );
  if (other && !heuristic)
    console.log(
      `  ${deepEval.exact ? "DeepEval-exact (--deepeval-exact)" : deepEval.callStructure === "deepeval" ? "DeepEval's own call structure (--call-structure deepeval)" : "Folded calls (the default)"}: ${estimate.llmCalls} LLM calls; ${otherStructure === "deepeval" ? "DeepEval's own call structure (--call-structure deepeval)" : "folded calls (the default)"} would make ${other.llmCalls}.`,
    );
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const known = reportKnownCliError(error, EVAL_USAGE, (line) => console.error(line));
    if (known !== null) process.exit(known);
    if (error instanceof InputError || (error instanceof Error && error.name === "RunConfigError")) {
      console.error(`Error: ${error.message}`);
      process.exit(2);
    }
    console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(3);
  },
);
