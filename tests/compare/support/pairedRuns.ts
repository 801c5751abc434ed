import { randomUUID } from "node:crypto";
import { sqlOf, type Db } from "@/lib/db/client";
import { listDatasetRowNumbers } from "@/lib/db/datasets/datasetQueries";
import type { SqlValue } from "@/lib/db/store/sqlRunner";
import { insertCompletedRun } from "../../support/completedRun";
import { mulberry32 } from "@/lib/stats";

/** Yes/no metrics and score metrics (a score's success is stored in `passed`, as the judge writes it). */
export const RATED = ["response/llm_judged/correctness", "response/llm_judged/safety"];
export const SCORED = ["response/llm_judged/faithfulness", "response/llm_judged/hallucination"];
export const PAIRED_METRICS = [...RATED, ...SCORED];

export type StoredJudgment = {
  rowId: string;
  rowNumber: number;
  metric: string;
  status: string;
  rating: string | null;
  score: number | null;
  passed: boolean | null;
};

/**
 * A completed run over every row of a dataset with a seeded-random judgment per (row, metric): mostly done,
 * some errored, a few left pending, so the paired counts have every cell and rows judged by one run only.
 * Written straight to the tables (the store's bulk insert; the kept tallies' triggers run as for the engine).
 */
export async function insertJudgedRun(
  db: Db,
  datasetId: string,
  options: { seed: number; yesRate: number; finishedAt: Date },
): Promise<{ runId: string; judgments: StoredJudgment[] }> {
  const runId = randomUUID();
  const random = mulberry32(options.seed);
  const at = options.finishedAt;
  const config = JSON.stringify({ metrics: PAIRED_METRICS, chunkMode: "batched", thresholds: {} });
  await insertCompletedRun(db, {
    id: runId,
    datasetId,
    name: `run ${options.seed}`,
    judgeModel: "judge-model",
    config,
    at,
  });
  const judgments: StoredJudgment[] = [];
  for (const { id: rowId, rowNumber } of await listDatasetRowNumbers(db, datasetId)) {
    for (const metric of PAIRED_METRICS) {
      const draw = random();
      const status = draw < 0.02 ? "pending" : draw < 0.05 ? "error" : "done";
      const done = status === "done";
      const rated = RATED.includes(metric);
      const rating = done && rated ? (random() < options.yesRate ? "yes" : "no") : null;
      const score = done && !rated ? Math.round(random() * 100) / 100 : null;
      const passed = rating !== null ? rating === "yes" : score !== null ? score >= options.yesRate - 0.2 : null;
      judgments.push({ rowId, rowNumber, metric, status, rating, score, passed });
    }
  }
  const rows: SqlValue[][] = judgments.map((j) => [
    randomUUID(),
    runId,
    j.rowId,
    j.rowNumber,
    j.metric,
    j.status,
    j.rating,
    j.score,
    j.score === null ? null : 0.5,
    j.passed,
    j.status === "done" ? "written by the test" : null,
    j.status === "error" ? "judge timed out" : null,
    j.status === "pending" ? null : "openai",
    j.status === "pending" ? null : "judge-model",
    j.status === "pending" ? null : at,
  ]);
  await sqlOf(db).bulkInsert([
    {
      table: "JudgmentItem",
      columns: [
        "id",
        "runId",
        "rowId",
        "rowNumber",
        "metric",
        "status",
        "rating",
        "score",
        "threshold",
        "passed",
        "rationale",
        "errorMessage",
        "judgeProvider",
        "judgeModel",
        "finishedAt",
      ],
      rows,
    },
  ]);
  return { runId, judgments };
}

/** Every DatasetRow needs these: a minimal row per number, written straight to the table. */
export async function insertDatasetRows(db: Db, count: number): Promise<string> {
  const datasetId = randomUUID();
  const at = new Date("2026-11-24T09:00:00Z");
  await sqlOf(db).bulkInsert([
    {
      table: "Dataset",
      columns: ["id", "name", "status", "rowCount", "createdAt"],
      rows: [[datasetId, "paired", "ready", count, at]],
    },
    {
      table: "DatasetRow",
      columns: ["id", "datasetId", "rowNumber", "requestId", "requestRaw", "requestFormat", "messages", "requestText"],
      // Row ids in another order than row numbers, as cuids of a re-upload may be: slices go by id, flips by number.
      rows: Array.from({ length: count }, (_, i) => [
        `row-${String((i * 7919) % count).padStart(6, "0")}-${i}`,
        datasetId,
        i + 1,
        `req-${i + 1}`,
        JSON.stringify(`question ${i + 1}`),
        "string",
        JSON.stringify([{ role: "user", content: `question ${i + 1}` }]),
        `question ${i + 1}`,
      ]),
    },
  ]);
  return datasetId;
}

/** What the paired counts and the flip list must say, counted in JavaScript from the judgments as written. */
export function expectedPairing(baseline: StoredJudgment[], candidate: StoredJudgment[]) {
  const byKey = new Map(candidate.map((j) => [`${j.rowId}\u0000${j.metric}`, j]));
  const counts = new Map<string, Record<string, number>>();
  const flips: { rowNumber: number; metric: string; regression: boolean }[] = [];
  const judged = (j: StoredJudgment) => j.status === "done" || j.status === "error";
  for (const a of baseline) {
    const b = byKey.get(`${a.rowId}\u0000${a.metric}`);
    if (!b) continue;
    const c = counts.get(a.metric) ?? {
      both: 0,
      yesYes: 0,
      yesNo: 0,
      noYes: 0,
      noNo: 0,
      passFail: 0,
      failPass: 0,
      onlyBaseline: 0,
      onlyCandidate: 0,
    };
    counts.set(a.metric, c);
    if (a.rating !== null && b.rating !== null) {
      c.both++;
      if (a.rating === "yes" && b.rating === "yes") c.yesYes++;
      if (a.rating === "yes" && b.rating === "no") c.yesNo++;
      if (a.rating === "no" && b.rating === "yes") c.noYes++;
      if (a.rating === "no" && b.rating === "no") c.noNo++;
    }
    const scoredInBoth = a.rating === null && b.rating === null && a.status === "done" && b.status === "done";
    if (scoredInBoth && a.passed === true && b.passed === false) c.passFail++;
    if (scoredInBoth && a.passed === false && b.passed === true) c.failPass++;
    if (judged(a) && !judged(b)) c.onlyBaseline++;
    if (judged(b) && !judged(a)) c.onlyCandidate++;
    const regression =
      (a.rating === "yes" && b.rating === "no") || (scoredInBoth && a.passed === true && b.passed === false);
    const improvement =
      (a.rating === "no" && b.rating === "yes") || (scoredInBoth && a.passed === false && b.passed === true);
    if (regression || improvement) flips.push({ rowNumber: a.rowNumber, metric: a.metric, regression });
  }
  flips.sort(
    (x, y) =>
      Number(y.regression) - Number(x.regression) ||
      x.rowNumber - y.rowNumber ||
      (x.metric < y.metric ? -1 : x.metric > y.metric ? 1 : 0),
  );
  const paired = [...counts.entries()].sort(([x], [y]) => (x < y ? -1 : 1)).map(([metric, c]) => ({ metric, ...c }));
  return { paired, flips };
}
