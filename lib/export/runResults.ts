import type { Db } from "@/lib/db/client";
import { getRunAggregates } from "@/lib/db/aggregateQueries";
import { listRunResultsPage } from "@/lib/db/resultQueries";
import { getRun } from "@/lib/db/runQueries";
import { storedRunConfigSchema } from "@/lib/engine/runConfig";
import type { Aggregate } from "@/lib/metrics/aggregates";
import { csvLine } from "./csv";
import { toResultRecord, type ResultRecord } from "./resultColumns";

export type RunExportMeta = {
  run: { id: string; name: string; status: string; judge_provider: string; judge_model: string; generation_model: string | null; dataset: string };
  aggregates: Record<string, number | null>;
  aggregate_details: Aggregate[];
};

/** The run's rows as result records, a page at a time. */
export async function* runResultRecords(db: Db, runId: string): AsyncGenerator<ResultRecord> {
  const run = await getRun(db, runId);
  if (!run) throw new Error(`run ${runId} does not exist`);
  const metrics = storedRunConfigSchema.parse(JSON.parse(run.config)).metrics;
  for (let cursor: number | null = 0; cursor !== null; ) {
    const page = await listRunResultsPage(db, runId, run.datasetId, cursor, 500);
    for (const row of page.rows) yield toResultRecord(row, metrics);
    cursor = page.nextRowNumber;
  }
}

export async function runExportMeta(db: Db, runId: string): Promise<RunExportMeta> {
  const run = await getRun(db, runId);
  if (!run) throw new Error(`run ${runId} does not exist`);
  const metrics = storedRunConfigSchema.parse(JSON.parse(run.config)).metrics;
  const aggregates = await getRunAggregates(db, runId, metrics);
  return {
    run: { id: run.id, name: run.name, status: run.status, judge_provider: run.judgeProvider, judge_model: run.judgeModel, generation_model: run.generationModel, dataset: run.dataset.name },
    aggregates: Object.fromEntries(aggregates.map((a) => [a.name, a.value])),
    aggregate_details: aggregates,
  };
}

/** JSON export: {run, aggregates, rows}, streamed as text pieces. */
export async function* runResultsJson(db: Db, runId: string): AsyncGenerator<string> {
  const meta = await runExportMeta(db, runId);
  yield `{"run":${JSON.stringify(meta.run)},"aggregates":${JSON.stringify(meta.aggregates)},"aggregate_details":${JSON.stringify(meta.aggregate_details)},"rows":[`;
  let first = true;
  for await (const record of runResultRecords(db, runId)) {
    yield `${first ? "\n" : ",\n"}${JSON.stringify(record)}`;
    first = false;
  }
  yield "\n]}\n";
}

/** CSV export: one line per dataset row, the seeds' column names as the header. */
export async function* runResultsCsv(db: Db, runId: string): AsyncGenerator<string> {
  let header: string[] | null = null;
  for await (const record of runResultRecords(db, runId)) {
    if (!header) {
      header = Object.keys(record);
      yield csvLine(header);
    }
    yield csvLine(header.map((column) => record[column]));
  }
}

/**
 * A comparison's export: every compared run's rows, one line per (run, dataset
 * row), with run_id and run_name first and then the seeds' column names, so
 * the columns mean exactly what they mean in a single run's export.
 */
export async function* comparisonResultsCsv(db: Db, runIds: string[]): AsyncGenerator<string> {
  let header: string[] | null = null;
  for (const runId of runIds) {
    const meta = await runExportMeta(db, runId);
    for await (const record of runResultRecords(db, runId)) {
      const line = { run_id: meta.run.id, run_name: meta.run.name, ...record };
      if (!header) {
        header = Object.keys(line);
        yield csvLine(header);
      }
      yield csvLine(header.map((column) => (line as Record<string, unknown>)[column]));
    }
  }
}

export async function* comparisonResultsJson(db: Db, runIds: string[]): AsyncGenerator<string> {
  yield `{"runs":[`;
  for (const [index, runId] of runIds.entries()) {
    const meta = await runExportMeta(db, runId);
    yield `${index === 0 ? "" : ","}\n{"run":${JSON.stringify(meta.run)},"aggregates":${JSON.stringify(meta.aggregates)},"rows":[`;
    let first = true;
    for await (const record of runResultRecords(db, runId)) {
      yield `${first ? "" : ","}\n${JSON.stringify(record)}`;
      first = false;
    }
    yield "]}";
  }
  yield "\n]}\n";
}
