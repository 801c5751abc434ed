import type { Db } from "@/lib/db/client";
import { saveJudgment } from "@/lib/db/work/judgmentResults";

/**
 * Writes a score for every pending item of a run, row by row in request order.
 * `passes` decides each row's pass/fail, so one helper serves higher- and lower-is-better metrics;
 * rows past the end of `scores` stay pending; `threshold` is the pass mark the judgments record (the default 0.5 unless a test sets another).
 */
export async function scoreRun(
  db: Db,
  runId: string,
  scores: number[],
  passes: (score: number) => boolean,
  threshold = 0.5,
) {
  const items = await db.judgmentItem.findMany({
    where: { runId },
    orderBy: { row: { rowNumber: "asc" } },
    select: { id: true, rowId: true, metric: true },
  });
  // Rows past the end of `scores` stay pending: judged in another run only.
  for (const [i, item] of items.slice(0, scores.length).entries())
    await saveTestVerdict(
      db,
      { ...item, runId },
      { rating: null, score: scores[i], threshold, passed: passes(scores[i]) },
    );
}

/** One judgment written as a test's judge would give it: its verdict, with fixed provenance (no usage, no cost). */
export async function saveTestVerdict(
  db: Db,
  item: { id: string; runId: string; rowId: string; metric: string },
  verdict: {
    rating: "yes" | "no" | null;
    score: number | null;
    threshold: number | null;
    /** Null for a judgment that errored. */
    passed: boolean | null;
    rationale?: string;
    /** Set for a judge that failed: the judgment is an error, with no rationale. */
    errorMessage?: string;
  },
) {
  await saveJudgment(db, item, {
    rating: verdict.rating,
    score: verdict.score,
    rationale: verdict.errorMessage ? null : (verdict.rationale ?? "written by the test"),
    errorMessage: verdict.errorMessage ?? null,
    provider: "openai",
    model: "judge-model",
    promptVersion: "test",
    promptHash: null,
    usage: null,
    cacheHit: false,
    attempts: 1,
    latencyMs: 0,
    threshold: verdict.threshold,
    passed: verdict.passed,
    costUsd: null,
  });
}

/** Thirty answered requests, each with one context item under `contextField` (retrieved or expected). */
export function thirtyRowsWithContext(contextField: "retrieved_context" | "expected_retrieved_context", word: string) {
  return Array.from({ length: 30 }, (_, i) => ({
    request_id: `r${i}`,
    request: `question ${i}`,
    response: `answer ${i}`,
    [contextField]: [{ content: `${word} ${i}`, doc_uri: `d${i}` }],
  }));
}
