import type { Db } from "@/lib/db/client";
import { toolCallSettings, type ToolCallSettingsInput } from "@/lib/contract/toolCallSettings";
import type { Correction } from "@/lib/stats";
import { DEFAULT_BLEU_TYPE } from "@/lib/metrics/statistical/bleu";
import { DEFAULT_ROUGE_TYPE } from "@/lib/metrics/statistical/rouge";
import { deepEvalSettings, type DeepEvalSettingsInput } from "@/lib/contract/deepEvalSettings";
import { hasStrictMode } from "@/lib/metrics/strictMode";
import { sortRubric, type GEvalDefinition } from "@/lib/contract/gEvalDefinition";
import { getRunAggregates } from "@/lib/db/judgments/aggregateQueries";
import { countLabelledRows, readRunLabelsInRowRange, type StoredLabel } from "@/lib/db/labels/labelQueries";
import { readMetricLabellers, readRunPersonLabelsInRowRange } from "@/lib/db/labels/peopleLabelQueries";
import { listRunResultsPage } from "@/lib/db/judgments/resultQueries";
import { getRun } from "@/lib/db/runs/runQueries";
import { trialsOf } from "@/lib/db/runs/storedRun";
import { labelledExportMetrics, withHumanLabelColumns, withHumanLabels } from "@/lib/labels/exportLabels";
import { runJudgeLabelMetrics } from "@/lib/labels/labelKinds";
import type { Aggregate } from "@/lib/contract/aggregates";
import { comparisonStatistics, exportedComparison, flippedRows } from "./comparisonStatistics";
import { csvLine } from "./csv";
import { resultColumnNames, toResultRecord, type ResultRecord } from "./resultColumns";

export type RunExportMeta = {
  run: {
    id: string;
    name: string;
    status: string;
    judge_provider: string;
    judge_model: string;
    generation_model: string | null;
    dataset: string;
    /** How the run was judged: what its numbers depend on beyond the judge (chunk mode, pass marks, metric settings). */
    settings: {
      chunk_mode: string;
      thresholds: Record<string, number>;
      context_relevance?: Record<string, number>;
      /** Which ROUGE F-measure is rouge's score (rougeL unless the run picked another). */
      rouge_type?: string;
      /** Which BLEU is bleu's score (cumulative4 unless the run picked one of DeepEval's bleu1 … bleu4). */
      bleu_type?: string;
      /** DeepEval's options, all of them (defaults included) and by DeepEval's names, when the run has a DeepEval metric or G-Eval. */
      deepeval?: DeepEvalExport;
      /** The run's G-Eval judges as defined: criteria or steps, parameters, scale, rubric, threshold. */
      g_eval_judges?: GEvalExport[];
    };
  };
  aggregates: Record<string, number | null>;
  aggregate_details: Aggregate[];
  /** The per-row columns of this run's export, in order. */
  columns: string[];
};

/**
 * Rows per page read from the database: memory stays bounded by one page whatever the run's size. A page
 * carries every judgment of its rows (a row × every judge is a dozen or more, with rationales and chunks):
 * 500 rows a page put about 20 MB more at the CLI's peak than 100 rows, and the export took about as long.
 */
const PAGE_ROWS = 100;
/** Text handed to the writer at once: records are batched so a 20,000-row export is not 20,000 tiny writes. */
const PIECE_CHARS = 64 * 1024;

/** withLabels: the dataset has human labels, so the export carries `…/human_label` columns. */
type ExportedRun = {
  id: string;
  datasetId: string;
  metrics: string[];
  withLabels: boolean;
  /** The run's custom and G-Eval judges (full names): they take labels too, though not in the catalogue. */
  runJudges?: string[];
  /** The run's trials (each row judged this many times) and whether it generates: the per-trial columns. */
  trials?: number;
  generates?: boolean;
  /** Per labellable metric more than one person labelled, its labellers: one export column each. */
  labellers?: ReadonlyMap<string, readonly string[]>;
};

async function loadExportedRun(db: Db, runId: string) {
  const run = await getRun(db, runId);
  if (!run) throw new Error(`run ${runId} does not exist`);
  const withLabels = (await countLabelledRows(db, run.datasetId)).length > 0;
  const runJudges = runJudgeLabelMetrics({ customJudges: run.customJudges, gEvalJudges: run.config.gEvalJudges }).map(
    (judge) => judge.metric,
  );
  const labellers = withLabels
    ? await exportLabellers(db, run.datasetId, run.config.metrics, runJudges)
    : new Map<string, string[]>();
  return {
    run,
    exported: {
      id: run.id,
      datasetId: run.datasetId,
      metrics: run.config.metrics,
      withLabels,
      runJudges,
      labellers,
      trials: trialsOf(run.config),
      generates: run.generationModel !== null,
    } satisfies ExportedRun,
  };
}

/** The labellers of each exported metric more than one person labelled (in name order): one column each. */
export async function exportLabellers(
  db: Db,
  datasetId: string,
  metrics: readonly string[],
  runJudges: readonly string[],
): Promise<Map<string, string[]>> {
  const labellers = new Map<string, string[]>();
  for (const metric of labelledExportMetrics(metrics, runJudges)) {
    const people = await readMetricLabellers(db, datasetId, metric);
    if (people.length > 1) labellers.set(metric, people.map((person) => person.labeller).sort());
  }
  return labellers;
}

/**
 * The columns of a run's export: Agent Evaluation's, and on a dataset with
 * human labels `<metric>/human_label` (the gold label) after each labellable
 * metric's, then one `<metric>/human_label/<labeller>` per person where
 * several labelled it.
 */
export function exportColumnNames(
  run: Pick<ExportedRun, "metrics" | "withLabels" | "runJudges" | "trials" | "generates" | "labellers">,
): string[] {
  const columns = resultColumnNames(run.metrics, run.trials, run.generates);
  return run.withLabels ? withHumanLabelColumns(columns, run.metrics, run.runJudges, run.labellers) : columns;
}

/** The run's rows as result records with the dataset's human labels beside each verdict, a page at a time. */
export async function* runResultRecords(db: Db, run: ExportedRun): AsyncGenerator<ResultRecord> {
  for (let cursor: number | null = 0; cursor !== null;) {
    const page = await listRunResultsPage(db, run.id, run.datasetId, cursor, PAGE_ROWS);
    if (!run.withLabels) {
      for (const row of page.rows) yield toResultRecord(row, run.metrics, run.trials);
      cursor = page.nextRowNumber;
      continue;
    }
    const last = page.rows.at(-1);
    const labelsByRow = new Map<number, StoredLabel[]>();
    const peopleByRow = new Map<number, StoredLabel[]>();
    const labellers = run.labellers ?? new Map<string, readonly string[]>();
    if (last) {
      // Labels given on another response than this run judged are left out: their cells stay blank.
      for (const label of await readRunLabelsInRowRange(db, run, cursor, last.rowNumber))
        labelsByRow.set(label.rowNumber, [...(labelsByRow.get(label.rowNumber) ?? []), label]);
      if (labellers.size > 0)
        for (const label of await readRunPersonLabelsInRowRange(db, run, [...labellers.keys()], cursor, last.rowNumber))
          peopleByRow.set(label.rowNumber, [...(peopleByRow.get(label.rowNumber) ?? []), label]);
    }
    for (const row of page.rows)
      yield withHumanLabels(
        toResultRecord(row, run.metrics, run.trials),
        run.metrics,
        labelsByRow.get(row.rowNumber) ?? [],
        run.runJudges,
        { labellers, labels: peopleByRow.get(row.rowNumber) ?? [] },
      );
    cursor = page.nextRowNumber;
  }
}

export async function runExportMeta(db: Db, runId: string): Promise<RunExportMeta & { exported: ExportedRun }> {
  const { run, exported } = await loadExportedRun(db, runId);
  const aggregates = await getRunAggregates(db, runId, exported.metrics);
  return {
    run: {
      id: run.id,
      name: run.name,
      status: run.status,
      judge_provider: run.judgeProvider,
      judge_model: run.judgeModel,
      generation_model: run.generationModel,
      dataset: run.dataset.name,
      settings: {
        chunk_mode: run.config.chunkMode,
        thresholds: run.config.thresholds,
        ...(run.config.contextRelevance ? { context_relevance: run.config.contextRelevance } : {}),
        ...(run.config.metrics.includes("response/statistical/rouge")
          ? { rouge_type: run.config.statistical?.rougeType ?? DEFAULT_ROUGE_TYPE }
          : {}),
        ...(run.config.metrics.includes("response/statistical/bleu")
          ? { bleu_type: run.config.statistical?.bleuType ?? DEFAULT_BLEU_TYPE }
          : {}),
        ...(run.config.metrics.some(hasStrictMode) ? { deepeval: deepEvalExport(run.config.deepEval) } : {}),
        ...(run.config.gEvalJudges?.length ? { g_eval_judges: run.config.gEvalJudges.map(gEvalExport) } : {}),
        ...(run.config.metrics.some(
          (metric) => metric.startsWith("agent/ground_truth/") || metric === "agent/llm_judged/tool_call_correctness",
        )
          ? { tool_calls: toolCallsExport(run.config.toolCalls) }
          : {}),
        ...(run.config.conversation?.guidelines ? { conversation_guidelines: run.config.conversation.guidelines } : {}),
      },
    },
    // Score metrics add {metric}/success/percentage beside {metric}/score/average.
    aggregates: Object.fromEntries(
      aggregates.flatMap((a) => [[a.name, a.value], ...(a.success ? [[a.success.name, a.success.value]] : [])]),
    ),
    aggregate_details: aggregates,
    columns: exportColumnNames(exported),
    exported,
  };
}

/** The tool-call settings by the upstream names, defaults included (a reader compares against their own). */
function toolCallsExport(input: ToolCallSettingsInput | undefined) {
  const settings = toolCallSettings(input);
  return {
    should_consider_ordering: settings.considerOrdering,
    evaluation_params: settings.evaluationParams,
    should_exact_match: settings.exactMatch,
  };
}

type DeepEvalExport = {
  /** DeepEval-exact: every DeepEval-named metric as DeepEval computes it (list_cap is then null: none). */
  deepeval_exact: boolean;
  call_structure: string;
  strict_mode: boolean;
  include_reason: boolean;
  penalize_ambiguous_claims: boolean;
  summarization_n: number;
  assessment_questions: string[] | null;
  list_cap: number | null;
  truths_extraction_limit: number | null;
};

function deepEvalExport(stored: DeepEvalSettingsInput | undefined): DeepEvalExport {
  const settings = deepEvalSettings(stored);
  return {
    deepeval_exact: settings.exact,
    call_structure: settings.callStructure,
    strict_mode: settings.strictMode,
    include_reason: settings.includeReason,
    penalize_ambiguous_claims: settings.penalizeAmbiguousClaims,
    summarization_n: settings.summarizationQuestions,
    assessment_questions: settings.assessmentQuestions,
    list_cap: Number.isFinite(settings.listCap) ? settings.listCap : null,
    truths_extraction_limit: settings.truthsExtractionLimit,
  };
}

type GEvalExport = {
  name: string;
  criteria: string | null;
  evaluation_steps: string[] | null;
  evaluation_params: string[];
  scale: string;
  rubric: { score_range: [number, number]; expected_outcome: string }[] | null;
  threshold: number;
};

function gEvalExport(definition: GEvalDefinition): GEvalExport {
  return {
    name: definition.name,
    criteria: definition.criteria ?? null,
    evaluation_steps: definition.evaluationSteps ?? null,
    evaluation_params: definition.evaluationParams,
    scale: definition.scale,
    rubric: definition.rubric
      ? sortRubric(definition.rubric).map((entry) => ({
          score_range: entry.scoreRange,
          expected_outcome: entry.expectedOutcome,
        }))
      : null,
    threshold: definition.threshold,
  };
}

/**
 * Reads the first value of a generator before handing it on, so a failure on
 * the first page surfaces before a single byte of the export is written (the
 * web route can then answer 500 instead of a truncated 200).
 */
async function primed<T>(source: AsyncGenerator<T>): Promise<AsyncGenerator<T>> {
  const first = await source.next();
  return (async function* () {
    if (first.done) return;
    yield first.value;
    yield* source;
  })();
}

/** JSON export: {run, aggregates, aggregate_details, rows}, streamed as text pieces. */
export async function* runResultsJson(db: Db, runId: string): AsyncGenerator<string> {
  const { exported, ...meta } = await runExportMeta(db, runId);
  const records = await primed(runResultRecords(db, exported));
  let piece = `{"run":${JSON.stringify(meta.run)},"aggregates":${JSON.stringify(meta.aggregates)},"aggregate_details":${JSON.stringify(meta.aggregate_details)},"rows":[`;
  let first = true;
  for await (const record of records) {
    piece += `${first ? "\n" : ",\n"}${JSON.stringify(record)}`;
    first = false;
    if (piece.length >= PIECE_CHARS) {
      yield piece;
      piece = "";
    }
  }
  yield `${piece}\n]}\n`;
}

/** CSV export: one line per dataset row, Agent Evaluation's column names as the header (written even for a run without rows). */
export async function* runResultsCsv(db: Db, runId: string): AsyncGenerator<string> {
  const { exported } = await loadExportedRun(db, runId);
  const header = exportColumnNames(exported);
  const records = await primed(runResultRecords(db, exported));
  let piece = csvLine(header);
  for await (const record of records) {
    piece += csvLine(header.map((column) => record[column]));
    if (piece.length >= PIECE_CHARS) {
      yield piece;
      piece = "";
    }
  }
  yield piece;
}

/**
 * The columns of a comparison: run_id and run_name, then the union of the
 * compared runs' columns in the order first seen (the row columns every run
 * has, then each run's metric columns), so a metric only a later run has is
 * not dropped.
 */
export function comparisonColumns(runColumns: string[][]): string[] {
  return [...new Set(["run_id", "run_name", ...runColumns.flat()])];
}

/**
 * A comparison's export: every compared run's rows, one line per (run, dataset
 * row), with run_id and run_name first and then Agent Evaluation's column names, so
 * the columns mean exactly what they mean in a single run's export. A cell of
 * a metric the line's run did not evaluate is empty.
 */
export async function* comparisonResultsCsv(db: Db, runIds: string[]): AsyncGenerator<string> {
  const metas = [];
  for (const runId of runIds) metas.push(await runExportMeta(db, runId));
  const header = comparisonColumns(metas.map((meta) => meta.columns));
  let piece = "";
  for (const [index, meta] of metas.entries()) {
    const records = await primed(runResultRecords(db, meta.exported));
    if (index === 0) piece = csvLine(header);
    for await (const record of records) {
      const line: ResultRecord = { ...record, run_id: meta.run.id, run_name: meta.run.name };
      piece += csvLine(header.map((column) => line[column]));
      if (piece.length >= PIECE_CHARS) {
        yield piece;
        piece = "";
      }
    }
  }
  yield piece;
}

/**
 * JSON comparison: {columns, baseline_run_id, statistics, flipped_rows, runs: [{run, aggregates, rows}]}.
 * statistics and flipped_rows are what the compare page shows against the baseline (comparisonStatistics.ts);
 * every row carries every column of the comparison (null where its run has no such metric).
 */
export async function* comparisonResultsJson(
  db: Db,
  runIds: string[],
  baselineId: string = runIds[0],
  correction?: Correction,
): AsyncGenerator<string> {
  const metas = [];
  for (const runId of runIds) metas.push(await runExportMeta(db, runId));
  const comparison = await exportedComparison(db, runIds, baselineId, { correction });
  if (!comparison) throw new Error("a compared run no longer exists");
  const columns = comparisonColumns(metas.map((meta) => meta.columns)).filter(
    (column) => column !== "run_id" && column !== "run_name",
  );
  let piece = `{"columns":${JSON.stringify(columns)},"baseline_run_id":${JSON.stringify(comparison.baselineId)},"statistics":${JSON.stringify(comparisonStatistics(comparison))},"flipped_rows":[`;
  let firstFlip = true;
  for await (const flip of flippedRows(db, comparison)) {
    piece += `${firstFlip ? "" : ","}\n${JSON.stringify(flip)}`;
    firstFlip = false;
    if (piece.length >= PIECE_CHARS) {
      yield piece;
      piece = "";
    }
  }
  piece += `],"runs":[`;
  for (const [index, meta] of metas.entries()) {
    const records = await primed(runResultRecords(db, meta.exported));
    piece += `${index === 0 ? "" : ","}\n{"run":${JSON.stringify(meta.run)},"aggregates":${JSON.stringify(meta.aggregates)},"rows":[`;
    let first = true;
    for await (const record of records) {
      piece += `${first ? "" : ","}\n${JSON.stringify(Object.fromEntries(columns.map((column) => [column, record[column] ?? null])))}`;
      first = false;
      if (piece.length >= PIECE_CHARS) {
        yield piece;
        piece = "";
      }
    }
    piece += "]}";
  }
  yield `${piece}\n]}\n`;
}
