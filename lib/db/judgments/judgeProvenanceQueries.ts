import { sqlOf, type Db } from "../client";
import { sqlFragments } from "../store/sqlFragments";
import { runRowRanges } from "./pairedSlices";

/** Who judged one metric of a run, as its finished judgments record it (one entry per distinct judge and prompt). */
export type MetricJudge = { metric: string; provider: string; model: string; promptVersion: string; rows: number };

/** The pass marks one metric's finished judgments of a run were scored against (usually one). */
export type MetricPassMark = { metric: string; threshold: number };

/**
 * Judgments per slice of getRunProvenance on SQLite. Judge, model, prompt and pass mark are in no index, so
 * each judgment costs a table read: at 700,000 judgments a run that was seconds of a blocked server in one
 * statement (two GROUP BYs: 3.3 s and 2.0 s here). 2,000 judgments are a few tens of milliseconds.
 */
export const PROVENANCE_SLICE_JUDGMENTS = 2_000;

/**
 * The judges and prompt versions behind each metric of a run, and the pass marks its scores were held to,
 * read from its finished judgments (not from the run's settings): a re-judge with another prompt, or
 * deterministic metrics in an LLM-judged run, show as what they really were; the pass mark is the
 * effective value each score was held to (the run's thresholds, a G-Eval judge's own, or the metric's
 * default), so two runs compare on what they used. Judgments without a pass mark (yes/no ratings, agent
 * measurements) record none. One pass over the run's done judgments, in slices of the run's rows on
 * SQLite with the event loop free between them (pairedSlices.ts), in one statement on PostgreSQL.
 * Judges are ordered by metric, then model and prompt version with an unrecorded one first.
 */
export async function getRunProvenance(
  db: Db,
  runId: string,
  options: { sliceJudgments?: number } = {},
): Promise<{ judges: MetricJudge[]; passMarks: MetricPassMark[] }> {
  const sql = sqlOf(db);
  const pairing = sqlFragments(sql).indexHint("JudgmentItem_pairing_idx");
  const judges = new Map<string, MetricJudge & { recorded: [string | null, string | null] }>();
  const marks = new Map<string, MetricPassMark>();
  const slices = runRowRanges(sql, runId, options.sliceJudgments ?? PROVENANCE_SLICE_JUDGMENTS);
  for await (const range of slices) {
    const groups = await sql.all<{
      metric: string;
      provider: string | null;
      model: string | null;
      promptVersion: string | null;
      threshold: number | null;
      n: number;
    }>(
      `SELECT a."metric" AS "metric", a."judgeProvider" AS "provider", a."judgeModel" AS "model",
              a."promptVersion" AS "promptVersion", a."threshold" AS "threshold", COUNT(*) AS "n"
       FROM "JudgmentItem" a${pairing}
       WHERE a."runId" = ?${range.condition} AND a."status" = 'done'
       GROUP BY a."metric", a."judgeProvider", a."judgeModel", a."promptVersion", a."threshold"`,
      [runId, ...range.params],
    );
    for (const group of groups) {
      const key = JSON.stringify([group.metric, group.provider, group.model, group.promptVersion]);
      const judge = judges.get(key);
      if (judge) judge.rows += Number(group.n);
      else
        judges.set(key, {
          metric: group.metric,
          provider: group.provider ?? "unknown",
          model: group.model ?? "unknown",
          promptVersion: group.promptVersion ?? "unknown",
          rows: Number(group.n),
          recorded: [group.model, group.promptVersion],
        });
      if (group.threshold !== null) {
        const threshold = Number(group.threshold);
        marks.set(JSON.stringify([group.metric, threshold]), { metric: group.metric, threshold });
      }
    }
  }
  // By metric, then model and prompt version with an unrecorded one first (as SQLite orders NULLs).
  const text = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  const nullsFirst = (x: string | null, y: string | null) =>
    x === y ? 0 : x === null ? -1 : y === null ? 1 : text(x, y);
  const ordered = [...judges.values()].sort(
    (x, y) =>
      text(x.metric, y.metric) ||
      nullsFirst(x.recorded[0], y.recorded[0]) ||
      nullsFirst(x.recorded[1], y.recorded[1]) ||
      text(x.provider, y.provider),
  );
  return {
    judges: ordered.map(({ recorded: _recorded, ...judge }) => judge),
    passMarks: [...marks.values()].sort((x, y) => text(x.metric, y.metric) || x.threshold - y.threshold),
  };
}
