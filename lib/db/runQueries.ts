import { WHITESPACE } from "@/lib/metrics/rowEligibility";
import type { Db } from "./client";

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
      id: true, rowNumber: true, hasResponse: true, hasExpectedResponse: true, hasExpectedFacts: true, hasRetrievedContext: true,
      hasRetrievedContent: true, hasExpectedRetrievedContext: true, totalTokenCount: true, latencySeconds: true,
    },
  });
  const emptyChunks = new Map<string, number>();
  if (rows.length > 0) {
    // One grouped query over the page's row-number range (bounded parameters, however large the page).
    const found = await db.$queryRawUnsafe<{ rowId: string; position: number | bigint }[]>(
      `SELECT c."rowId" AS "rowId", MIN(c."position") AS "position"
       FROM "DatasetRow" r JOIN "ContextChunk" c ON c."rowId" = r."id"
       WHERE r."datasetId" = ? AND r."rowNumber" > ? AND r."rowNumber" <= ? AND c."kind" = 'retrieved' AND TRIM(COALESCE(c."content", ''), ?) = ''
       GROUP BY c."rowId"`,
      datasetId, afterRowNumber, rows[rows.length - 1].rowNumber, WHITESPACE,
    );
    for (const entry of found) emptyChunks.set(entry.rowId, Number(entry.position));
  }
  return {
    rows: rows.map((row) => ({ ...row, firstEmptyRetrievedChunk: emptyChunks.get(row.id) ?? null })),
    nextRowNumber: rows.length === take ? rows[rows.length - 1].rowNumber : null,
  };
}

export async function getRun(db: Db, runId: string) {
  return db.run.findUnique({ where: { id: runId }, include: { customJudges: true, dataset: { select: { id: true, name: true, rowCount: true } } } });
}

export type ItemCounts = { pending: number; running: number; done: number; error: number; skipped: number; total: number };

/** Progress is a count of item statuses (GROUP BY in SQL). */
export async function getRunProgress(db: Db, runId: string): Promise<{ judgments: ItemCounts; generations: ItemCounts }> {
  const [judgments, generations] = await Promise.all([
    db.judgmentItem.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } }),
    db.generation.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } }),
  ]);
  return { judgments: toCounts(judgments), generations: toCounts(generations) };
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

/** The next pending judgments after a cursor, with what the judges need of their rows. */
export async function listPendingJudgments(db: Db, runId: string, afterId: string, take: number) {
  return db.judgmentItem.findMany({
    where: { runId, status: "pending", id: { gt: afterId } },
    orderBy: { id: "asc" },
    take,
    select: { id: true, rowId: true, metric: true },
  });
}

export async function listPendingGenerations(db: Db, runId: string, afterId: string, take: number) {
  return db.generation.findMany({ where: { runId, status: "pending", id: { gt: afterId } }, orderBy: { id: "asc" }, take, select: { id: true, rowId: true } });
}

/** Everything a judge needs of some rows: text, ground truth, chunks, agent facts, and the run's generated response if any. */
export async function loadJudgeRows(db: Db, runId: string, rowIds: string[]) {
  const [rows, generations] = await Promise.all([
    db.datasetRow.findMany({
      where: { id: { in: rowIds } },
      select: {
        id: true, messages: true, requestText: true, response: true, expectedResponse: true, expectedFacts: true,
        totalTokenCount: true, inputTokenCount: true, outputTokenCount: true, latencySeconds: true,
        chunks: { orderBy: [{ kind: "asc" }, { position: "asc" }], select: { kind: true, position: true, content: true, docUri: true } },
      },
    }),
    db.generation.findMany({ where: { runId, rowId: { in: rowIds } }, select: { rowId: true, status: true, response: true, errorMessage: true, inputTokenCount: true, outputTokenCount: true, latencySeconds: true } }),
  ]);
  const generationByRow = new Map(generations.map((g) => [g.rowId, g]));
  return rows.map((row) => ({ ...row, generation: generationByRow.get(row.id) ?? null }));
}
export type JudgeRowData = Awaited<ReturnType<typeof loadJudgeRows>>[number];

/** Every run, newest first, with its dataset and item counts per status (one GROUP BY for all runs). */
export async function listRuns(db: Db, take = 200, datasetId?: string) {
  const runs = await db.run.findMany({
    where: datasetId ? { datasetId } : {},
    orderBy: { createdAt: "desc" },
    take,
    select: { id: true, name: true, tags: true, status: true, judgeProvider: true, judgeModel: true, generationModel: true, createdAt: true, startedAt: true, finishedAt: true, dataset: { select: { id: true, name: true } } },
  });
  const runIds = runs.map((r) => r.id);
  const [counts, yesCounts] = await Promise.all([
    db.judgmentItem.groupBy({ by: ["runId", "status"], where: { runId: { in: runIds } }, _count: { _all: true } }),
    // Headline pass rates: yes share of the judged yes/no metrics, per run and metric.
    db.judgmentItem.groupBy({ by: ["runId", "metric", "rating"], where: { runId: { in: runIds }, status: "done", rating: { not: null } }, _count: { _all: true } }),
  ]);
  const headlines = new Map<string, Map<string, { yes: number; judged: number }>>();
  for (const c of yesCounts) {
    const perRun = headlines.get(c.runId) ?? new Map<string, { yes: number; judged: number }>();
    const entry = perRun.get(c.metric) ?? { yes: 0, judged: 0 };
    entry.judged += c._count._all;
    if (c.rating === "yes") entry.yes += c._count._all;
    perRun.set(c.metric, entry);
    headlines.set(c.runId, perRun);
  }
  const byRun = new Map<string, Record<string, number>>();
  for (const c of counts) {
    const entry = byRun.get(c.runId) ?? {};
    entry[c.status] = c._count._all;
    byRun.set(c.runId, entry);
  }
  return runs.map((run) => ({
    ...run,
    counts: byRun.get(run.id) ?? {},
    headlines: [...(headlines.get(run.id) ?? new Map()).entries()].map(([metric, v]) => ({ metric, rate: v.yes / v.judged, judged: v.judged })),
  }));
}

/** Runs to offer in the compare picker: finished or running, newest first. */
export async function listRunsForPicker(db: Db) {
  return db.run.findMany({
    orderBy: { createdAt: "desc" },
    take: 200,
    select: { id: true, name: true, status: true, judgeProvider: true, judgeModel: true, generationModel: true, createdAt: true, dataset: { select: { id: true, name: true } } },
  });
}
