import { randomUUID } from "node:crypto";
import { changedToolCallSettings } from "@/lib/contract/toolCallSettings";
import type { Db } from "@/lib/db/client";
import { getDataset } from "@/lib/db/datasets/datasetQueries";
import {
  finishPlanning,
  insertPlanningRun,
  insertPlanPage,
  type PlannedGeneration,
  type RunItemPlan,
} from "@/lib/db/work/runWrites";
import { listRowFlagsPage } from "@/lib/db/runs/runQueries";
import type { RunBudget } from "@/lib/db/runs/runBudget";
import type { RunsInProgressLimit } from "@/lib/db/runs/runsInProgress";
import type { StoredRunConfig } from "@/lib/db/runs/storedRun";
import { offlineUnavailableReason } from "@/lib/judges/heuristic";
import { changedDeepEvalSettings } from "@/lib/contract/deepEvalSettings";
import { gEvalMetricName, gEvalRequirements } from "@/lib/contract/gEvalMetric";
import type { RowInput } from "@/lib/contract/metricCatalog";
import { requirementsOf, skipReason } from "@/lib/metrics/rowEligibility";
import { strictThresholds } from "@/lib/metrics/strictMode";
import { orderedUuid } from "@/lib/db/orderedUuid";
import { customMetricName } from "@/lib/contract/judgeDefinitions";
import { runRequirements } from "@/lib/contract/deepEvalExactInputs";
import { runConfigSchema, type RunConfig, type RunConfigInput } from "./runConfig";
import { RunsInProgressRefusal } from "./runsInProgressRefusal";

/** A run config that does not validate: each problem on its own (a problem's own words may hold "; "). */
export class RunConfigError extends Error {
  name = "RunConfigError";
  readonly problems: string[];
  constructor(problems: string | string[]) {
    const list = typeof problems === "string" ? [problems] : problems;
    super(list.join("; "));
    this.problems = list;
  }
}

/** Hands the event loop to timers and requests before going on. */
function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/** Rows read per planning page. */
const PLAN_PAGE_ROWS = 500;
/**
 * Items per write transaction, about (a row's items are never split). The transaction holds the event loop,
 * and a process's first ones are the slowest (its statements and code still cold): at 500 items the longest
 * held it 80–108 ms, at 300 items 48–56 ms, for the same total time (npm run bench:plan).
 */
const PLAN_WRITE_ITEMS = 300;
/** How long a planner may go without finishing a page before its half-made run counts as abandoned. */
const PLANNING_TTL_MS = 60_000;

/**
 * Persists a run and its whole plan before anything executes: one work item
 * per (row, metric, trial), pending or skipped with the reason, plus one generation
 * item per (row, trial) when the run generates responses. The plan is written page by
 * page under the `planning` status (lib/db/work/runWrites.ts says why), in memory
 * bounded by a page, handing the event loop back between pages; the run
 * becomes pending only once the whole plan is stored. From then on progress is
 * a count of item statuses and a crash loses nothing.
 */
export async function createRun(
  db: Db,
  input: RunConfigInput,
  options: {
    budget?: RunBudget;
    createdById?: string | null;
    /** The creator's ceiling on runs in progress: the run is stored only within it, else RunsInProgressRefusal. */
    inProgressLimit?: RunsInProgressLimit;
  } = {},
): Promise<string> {
  const parsed = runConfigSchema.safeParse(input);
  if (!parsed.success) throw new RunConfigError(parsed.error.issues.map((issue) => issue.message));
  const config = parsed.data;
  const dataset = await getDataset(db, config.datasetId);
  if (!dataset) throw new RunConfigError("the dataset does not exist");

  const generates = config.generation !== undefined;
  const chosenJudges: { metric: string; requires: RowInput[]; unavailable?: string | null }[] = [
    ...config.metrics.map((metric) => ({
      metric,
      requires: requirementsOf(metric),
      unavailable: unavailableWithJudge(config, metric),
    })),
    ...config.customJudges.map((custom) => ({
      metric: customMetricName(custom),
      requires: requirementsOf("", custom),
      // The offline judge has rules, not a model that can read worked examples: an aligned judge would run as
      // its original there and be reported as aligned.
      unavailable:
        config.judge.provider === "heuristic" && custom.alignment
          ? `${custom.assessmentName} is an aligned judge and needs an LLM judge: the offline heuristic judge does not read labelled examples`
          : null,
    })),
    // G-Eval has no offline rule: on the offline judge its metrics are planned skipped, with why.
    ...config.gEvalJudges.map((definition) => ({
      metric: gEvalMetricName(definition),
      requires: gEvalRequirements(definition.evaluationParams),
      unavailable:
        config.judge.provider === "heuristic"
          ? `g_eval ${definition.name} needs an LLM judge: the offline heuristic judge has no rule for it`
          : null,
    })),
  ];
  // Under DeepEval-exact, DeepEval's metrics judge an empty response as DeepEval does (lib/contract/deepEvalExactInputs.ts).
  const judges = chosenJudges.map((judge) => ({
    ...judge,
    requires: runRequirements(judge.metric, judge.requires, config.deepEval?.exact === true),
  }));
  const runId = randomUUID();
  const planner = { owner: `planner-${randomUUID().slice(0, 8)}`, ttlMs: PLANNING_TTL_MS };
  const stored: StoredRunConfig = {
    metrics: judges.map((judge) => judge.metric),
    chunkMode: config.chunkMode,
    // A G-Eval judge's own threshold is its pass mark unless the run's thresholds name it; DeepEval's
    // strict_mode sets every DeepEval metric's (1, or 0 where lower is better) over both.
    thresholds: {
      ...Object.fromEntries(
        config.gEvalJudges.map((definition) => [gEvalMetricName(definition), definition.threshold]),
      ),
      ...config.thresholds,
      ...(config.deepEval?.strictMode ? strictThresholds(judges.map((judge) => judge.metric)) : {}),
    },
    ...(config.gEvalJudges.length > 0 ? { gEvalJudges: config.gEvalJudges } : {}),
    ...(config.trials > 1 ? { trials: config.trials } : {}),
    ...(config.generation ? { generationTemperature: config.generation.temperature } : {}),
    ...scoreMetricSettings(config),
  };
  const generationModel = config.generation?.model ?? null;
  const started = await insertPlanningRun(
    db,
    {
      id: runId,
      datasetId: config.datasetId,
      name: config.name?.trim() || defaultRunName(config.judge.model, config.generation?.model),
      tags: JSON.stringify(config.tags),
      judgeProvider: config.judge.provider,
      judgeModel: config.judge.model,
      concurrency: config.concurrency,
      config: JSON.stringify(stored),
      generationModel,
      generationSystemPrompt: config.generation?.systemPrompt ?? null,
      budget: options.budget,
      createdById: options.createdById ?? null,
    },
    config.customJudges,
    planner,
    options.inProgressLimit ?? null,
  );
  if (!started.ok) throw new RunsInProgressRefusal(started.inProgress);
  for (let cursor: number | null = 0; cursor !== null;) {
    // A turn before each read and after it: on SQLite every query completes without leaving the current task,
    // so the run's insert, a page's read and its first write would otherwise hold the event loop as one.
    await nextTurn();
    const page = await listRowFlagsPage(db, config.datasetId, cursor, PLAN_PAGE_ROWS);
    await nextTurn();
    let items: RunItemPlan[] = [];
    let generations: PlannedGeneration[] = [];
    let written = false;
    // Each transaction's items are built just before it, not the whole page's first: building 5,500 items took
    // 90 ms in one go on a process's first page (20–45 ms on later ones), which, with the first write, held the
    // event loop for 150–230 ms (npm run bench:plan, 20,000 rows × 11 judges; now about 50 ms).
    const write = async () => {
      await insertPlanPage(db, runId, { items, generations, generationModel }, planner);
      items = [];
      generations = [];
      written = true;
      // Timers (other runs' lease heartbeats) and requests get their turn between transactions.
      await nextTurn();
    };
    for (const row of page.rows) {
      for (let trial = 1; trial <= config.trials; trial++) {
        if (generates) generations.push({ rowId: row.id, trial });
        for (const judge of judges) {
          const reason = judge.unavailable ?? skipReason(row, judge.requires, generates);
          items.push({
            id: orderedUuid(),
            rowId: row.id,
            rowNumber: row.rowNumber,
            metric: judge.metric,
            trial,
            status: reason ? "skipped" : "pending",
            skipReason: reason,
          });
        }
      }
      if (items.length >= PLAN_WRITE_ITEMS) await write();
    }
    // Every page writes once at least: the write renews the planner's lease.
    if (items.length > 0 || generations.length > 0 || !written) await write();
    cursor = page.nextRowNumber;
  }
  await finishPlanning(db, runId, planner.owner);
  return runId;
}

/**
 * Why the run's judge cannot compute a metric on any row, or null: an LLM-only score metric
 * (no offline rule) in a run on the offline judge is planned skipped with the reason, as the run
 * form shows it, rather than judged into errors or refused (the form selects what the data allows).
 */
function unavailableWithJudge(config: RunConfig, metric: string): string | null {
  return config.judge.provider === "heuristic" ? offlineUnavailableReason(metric) : null;
}

/** The score metrics' per-run settings, stored only when set (Mastra's context_relevance, the ROUGE type, DeepEval's options, tool calls'). */
function scoreMetricSettings(
  config: RunConfig,
): Pick<StoredRunConfig, "contextRelevance" | "statistical" | "deepEval" | "toolCalls" | "conversation"> {
  const deepEval = changedDeepEvalSettings(config.deepEval);
  const toolCalls = changedToolCallSettings(config.toolCalls);
  // DeepEval-exact takes DeepEval's defaults where Assay's differ: its BLEU is bleu1, stored so the run says it.
  const bleuType = config.statistical?.bleuType ?? (deepEval.exact ? "bleu1" : undefined);
  const statistical = { ...config.statistical, ...(bleuType ? { bleuType } : {}) };
  return {
    ...(config.contextRelevance ? { contextRelevance: config.contextRelevance } : {}),
    ...(Object.keys(statistical).length > 0 ? { statistical } : {}),
    ...(Object.keys(deepEval).length > 0 ? { deepEval } : {}),
    ...(Object.keys(toolCalls).length > 0 ? { toolCalls } : {}),
    ...(config.conversation?.guidelines ? { conversation: { guidelines: config.conversation.guidelines } } : {}),
  };
}

function defaultRunName(judgeModel: string, generationModel?: string): string {
  const stamp = new Date().toISOString().slice(0, 16).replace("T", " ");
  return generationModel
    ? `${generationModel} · judged by ${judgeModel} · ${stamp}`
    : `Judged by ${judgeModel} · ${stamp}`;
}
