import { WHITESPACE } from "@/lib/contract/rowInputs";
import { sqlOf, type Db } from "../client";
import { sqlFragments } from "../store/sqlFragments";
import { orderHeadlines } from "./runHeadlines";
import { countInProgress } from "./runsInProgress";
import { runIdsWithTag } from "./runTagFilter";
import { decodeRun, decodeRunTags } from "./storedRun";

/**
 * Row flags in row-number order, a page at a time, for planning a run without loading the dataset at once;
 * with the position of each row's first retrieved chunk without content (the content judges skip such rows).
 */
export async function listRowFlagsPage(db: Db, datasetId: string, afterRowNumber: number, take: number) {
  const rows = await db.datasetRow.findMany({
    where: { datasetId, rowNumber: { gt: afterRowNumber } },
    orderBy: { rowNumber: "asc" },
    take,
    select: {
      id: true,
      rowNumber: true,
      hasResponse: true,
      hasEmptyResponse: true,
      hasExpectedResponse: true,
      hasExpectedFacts: true,
      hasRetrievedContext: true,
      hasRetrievedContent: true,
      hasExpectedRetrievedContext: true,
      totalTokenCount: true,
      latencySeconds: true,
      hasToolCalls: true,
      hasExpectedToolCalls: true,
      hasTrace: true,
      conversationAnchor: true,
      sessionId: true,
    },
  });
  const emptyChunks = new Map<string, number>();
  if (rows.length > 0) {
    // One grouped query over the page's row-number range (bounded parameters, however large the page).
    const found = await sqlOf(db).all<{ rowId: string; position: number }>(
      `SELECT c."rowId" AS "rowId", MIN(c."position") AS "position"
       FROM "DatasetRow" r JOIN "ContextChunk" c ON c."rowId" = r."id"
       WHERE r."datasetId" = ? AND r."rowNumber" > ? AND r."rowNumber" <= ? AND c."kind" = 'retrieved' AND TRIM(COALESCE(c."content", ''), ?) = ''
       GROUP BY c."rowId"`,
      [datasetId, afterRowNumber, rows[rows.length - 1].rowNumber, WHITESPACE],
    );
    for (const entry of found) emptyChunks.set(entry.rowId, entry.position);
  }
  const expectedContent = await rowsWithExpectedContent(db, datasetId, afterRowNumber, rows);
  return {
    rows: rows.map((row) => ({
      ...row,
      firstEmptyRetrievedChunk: emptyChunks.get(row.id) ?? null,
      hasExpectedContextContent: expectedContent.has(row.id),
      inSession: row.sessionId !== null,
    })),
    nextRowNumber: rows.length === take ? rows[rows.length - 1].rowNumber : null,
  };
}

/**
 * Which of a page's rows have an expected_retrieved_context chunk with content (DeepEval's ideal
 * `context`, which hallucination needs): one grouped query over the page's row-number range.
 */
async function rowsWithExpectedContent(
  db: Db,
  datasetId: string,
  afterRowNumber: number,
  rows: { id: string; rowNumber: number; hasExpectedRetrievedContext: boolean }[],
): Promise<Set<string>> {
  if (!rows.some((row) => row.hasExpectedRetrievedContext)) return new Set();
  const found = await sqlOf(db).all<{ rowId: string }>(
    `SELECT DISTINCT c."rowId" AS "rowId"
     FROM "DatasetRow" r JOIN "ContextChunk" c ON c."rowId" = r."id"
     WHERE r."datasetId" = ? AND r."rowNumber" > ? AND r."rowNumber" <= ? AND c."kind" = 'expected' AND TRIM(COALESCE(c."content", ''), ?) <> ''`,
    [datasetId, afterRowNumber, rows[rows.length - 1].rowNumber, WHITESPACE],
  );
  return new Set(found.map((entry) => entry.rowId));
}

/** A run with its custom judges and dataset, its config and tags decoded (validated here, once per read). */
export async function getRun(db: Db, runId: string) {
  const run = await db.run.findUnique({
    where: { id: runId },
    include: { customJudges: true, dataset: { select: { id: true, name: true, rowCount: true } } },
  });
  return run ? decodeRun(run) : null;
}

export type RunRecord = NonNullable<Awaited<ReturnType<typeof getRun>>>;

export type ItemCounts = {
  pending: number;
  running: number;
  done: number;
  error: number;
  skipped: number;
  total: number;
};

/** While a re-judge is pending or running: how many judgments it redoes, and how many of those are finished. */
export type RejudgeProgress = { total: number; finished: number };

/**
 * Progress is a count of item statuses (GROUP BY in SQL). During a re-judge the
 * re-judged items are the ones not finished, so its progress needs no extra query.
 */
export async function getRunProgress(
  db: Db,
  runId: string,
): Promise<{ judgments: ItemCounts; generations: ItemCounts; rejudge: RejudgeProgress | null }> {
  const [tally, running, generations, run] = await Promise.all([
    // The judgments' statuses from the kept tallies (RunMetricTally): a few rows, whatever the run's size.
    sqlOf(db).get<Record<Exclude<keyof ItemCounts, "total">, number | null>>(
      `SELECT SUM("pending") AS "pending", SUM("running") AS "running", SUM("done") AS "done", SUM("error") AS "error",
         SUM("skipped") AS "skipped" FROM "RunMetricTally" WHERE "runId" = ?`,
      [runId],
    ),
    countRunningJudgments(db, [runId]),
    db.generation.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } }),
    db.run.findUnique({ where: { id: runId }, select: { rejudgeTotal: true } }),
  ]);
  const open = splitOpen(Number(tally?.pending ?? 0) + Number(tally?.running ?? 0), running.get(runId) ?? 0);
  const counts = toCounts(
    (["pending", "running", "done", "error", "skipped"] as const).map((status) => ({
      status,
      _count: { _all: status === "pending" || status === "running" ? open[status] : Number(tally?.[status] ?? 0) },
    })),
  );
  const total = run?.rejudgeTotal ?? null;
  const rejudge = total === null ? null : { total, finished: Math.max(0, total - counts.pending - counts.running) };
  return { judgments: counts, generations: toCounts(generations), rejudge };
}

/**
 * The judgments being judged now, per run, counted live: the kept tallies count a claimed judgment as pending
 * (on PostgreSQL a claim writes no tally; see migration kept_tally_deltas). A few dozen per worker, read
 * through the (runId, status) index.
 */
async function countRunningJudgments(db: Db, runIds: string[]): Promise<Map<string, number>> {
  const sql = sqlOf(db);
  const rows = await sql.all<{ runId: string; running: number }>(
    `SELECT "runId" AS "runId", COUNT(*) AS "running" FROM "JudgmentItem"
     WHERE ${sqlFragments(sql).inList(`"runId"`)} AND "status" = 'running' GROUP BY "runId"`,
    [runIds],
  );
  return new Map(rows.map((row) => [row.runId, Number(row.running)]));
}

/** The unfinished judgments (pending and running, as the tallies keep them) split by the live running count. */
function splitOpen(open: number, running: number): { pending: number; running: number } {
  const runningNow = Math.min(open, running);
  return { pending: open - runningNow, running: runningNow };
}

function toCounts(groups: { status: string; _count: { _all: number } }[]): ItemCounts {
  const counts: ItemCounts = { pending: 0, running: 0, done: 0, error: 0, skipped: 0, total: 0 };
  for (const group of groups) {
    const key = group.status as keyof ItemCounts;
    if (key in counts) counts[key] += group._count._all;
    counts.total += group._count._all;
  }
  return counts;
}

export type { JudgeRowData } from "../work/workRows";

const RUN_LIST_SELECT = {
  id: true,
  name: true,
  tags: true,
  status: true,
  rejudgeTotal: true,
  workingMs: true,
  judgeProvider: true,
  judgeModel: true,
  generationModel: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
  datasetId: true,
  createdById: true,
} as const;

/**
 * Runs newest first with their dataset's id and name. The datasets come from a
 * flat query filtered like the runs, not from a nested relation load (which
 * Prisma sends as one bound value per dataset id).
 */
async function listRunsWithDataset(db: Db, take: number, datasetId?: string, tagged?: string[]) {
  const where = { ...(datasetId ? { datasetId } : {}), ...(tagged ? { id: { in: tagged } } : {}) };
  const [runs, datasets] = await Promise.all([
    db.run.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "asc" }], take, select: RUN_LIST_SELECT }),
    db.dataset.findMany({ where: { runs: { some: where } }, select: { id: true, name: true } }),
  ]);
  const byId = new Map(datasets.map((dataset) => [dataset.id, dataset]));
  return runs.map(({ datasetId: id, ...run }) => ({
    ...run,
    tags: decodeRunTags(run.tags),
    dataset: byId.get(id) ?? { id, name: "" },
  }));
}

/**
 * Every run, newest first, with its dataset and item counts per status (one GROUP BY for all runs); only a
 * dataset's, or only those with one tag (matched whole, as listRunSummaries matches it), when given.
 */
export async function listRuns(db: Db, take = 200, datasetId?: string, tag?: string) {
  const tagged = tag ? await runIdsWithTag(db, { tag, datasetId, take }) : undefined;
  const runs = await listRunsWithDataset(db, take, datasetId, tagged);
  // The same newest-first window as a subquery, so the counts bind the same values for 2 runs or 200; a tag's
  // runs by their ids, bound as one list.
  const window = `SELECT "id" FROM "Run" ${datasetId ? `WHERE "datasetId" = @datasetId ` : ""}ORDER BY "createdAt" DESC, "id" ASC LIMIT @take`;
  const windowArgs: Record<string, string | number | string[]> = tagged
    ? { tagged }
    : datasetId
      ? { datasetId, take }
      : { take };
  const sql = sqlOf(db);
  const inWindow = tagged ? sqlFragments(sql).inList(`"runId"`, "@tagged") : `"runId" IN (${window})`;
  // Statuses and headline pass rates (the yes share of each judged yes/no metric) from the kept tallies.
  const tallies = await sql.all<{
    runId: string;
    metric: string;
    pending: number;
    running: number;
    done: number;
    error: number;
    skipped: number;
    yes: number;
    no: number;
  }>(
    `SELECT "runId" AS "runId", "metric", SUM("pending") AS "pending", SUM("running") AS "running", SUM("done") AS "done",
       SUM("error") AS "error", SUM("skipped") AS "skipped", SUM("yes") AS "yes", SUM("no") AS "no"
     FROM "RunMetricTally" WHERE ${inWindow} GROUP BY "runId", "metric"`,
    windowArgs,
  );
  const headlines = new Map<string, Map<string, { yes: number; judged: number }>>();
  const byRun = new Map<string, Record<string, number>>();
  for (const t of tallies) {
    const judged = Number(t.yes) + Number(t.no);
    if (judged > 0) {
      const perRun = headlines.get(t.runId) ?? new Map<string, { yes: number; judged: number }>();
      perRun.set(t.metric, { yes: Number(t.yes), judged });
      headlines.set(t.runId, perRun);
    }
    const entry = byRun.get(t.runId) ?? {};
    for (const status of ["pending", "running", "done", "error", "skipped"] as const) {
      const n = Number(t[status]);
      if (n > 0) entry[status] = (entry[status] ?? 0) + n;
    }
    byRun.set(t.runId, entry);
  }
  const running = await countRunningJudgments(
    db,
    runs.map((run) => run.id),
  );
  for (const [runId, entry] of byRun) {
    const open = splitOpen((entry.pending ?? 0) + (entry.running ?? 0), running.get(runId) ?? 0);
    delete entry.pending;
    delete entry.running;
    for (const status of ["pending", "running"] as const) if (open[status] > 0) entry[status] = open[status];
  }
  return runs.map((run) => ({
    ...run,
    counts: byRun.get(run.id) ?? {},
    headlines: orderHeadlines(
      [...(headlines.get(run.id) ?? new Map()).entries()].map(([metric, v]) => ({
        metric,
        rate: v.yes / v.judged,
        judged: v.judged,
      })),
    ),
  }));
}

/** Runs to offer in the compare picker: newest first. */
export async function listRunsForPicker(db: Db) {
  return listRunsWithDataset(db, 200);
}

/** Judgments per metric made by one judge provider (the engine benchmark's calls per LLM-judged metric). */
export async function countJudgmentsByMetric(
  db: Db,
  runId: string,
  judgeProvider: string,
): Promise<{ metric: string; count: number }[]> {
  const groups = await db.judgmentItem.groupBy({
    by: ["metric"],
    where: { runId, judgeProvider },
    _count: { _all: true },
  });
  return groups.map((group) => ({ metric: group.metric, count: group._count._all }));
}

/**
 * LLM calls per metric in a run, for the benchmark: judged rows (done or error) and the calls they
 * made (attempts, retries and repairs included; 0 for cache hits and for metrics with no LLM).
 */
export async function llmCallsByMetric(
  db: Db,
  runId: string,
): Promise<{ metric: string; rows: number; calls: number; cacheHits: number }[]> {
  const groups = await db.judgmentItem.groupBy({
    by: ["metric"],
    where: { runId, status: { in: ["done", "error"] } },
    _count: { _all: true },
    _sum: { attempts: true },
  });
  const hits = await db.judgmentItem.groupBy({
    by: ["metric"],
    where: { runId, cacheHit: true },
    _count: { _all: true },
  });
  const hitsByMetric = new Map(hits.map((group) => [group.metric, group._count._all]));
  return groups.map((group) => ({
    metric: group.metric,
    rows: group._count._all,
    calls: group._sum.attempts ?? 0,
    cacheHits: hitsByMetric.get(group.metric) ?? 0,
  }));
}

/** How many judgments a run has, whatever their status (the benchmarks' size of a planned run). */
export async function countRunJudgments(db: Db, runId: string): Promise<number> {
  return db.judgmentItem.count({ where: { runId } });
}

/** How many of these run ids name a stored run (a benchmark reuses the runs it kept). */
export async function countStoredRuns(db: Db, runIds: readonly string[]): Promise<number> {
  return db.run.count({ where: { id: { in: [...runIds] } } });
}

/** Some row that failed a metric in the run, or null (the UI benchmark opens its drill-down). */
export async function findFailedRowId(db: Db, runId: string): Promise<string | null> {
  const item = await db.judgmentItem.findFirst({ where: { runId, passed: false }, select: { rowId: true } });
  return item?.rowId ?? null;
}

/**
 * How many runs a user has in progress, as ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER counts them: their runs
 * planning, queued or running, and their alignments being measured (runsInProgress.ts, one query).
 */
export async function countRunsInProgressBy(db: Db, userId: string): Promise<number> {
  return countInProgress(sqlOf(db), userId);
}
