import { DEFAULT_SCORE_THRESHOLD } from "@/lib/contract/thresholds";
import {
  summarizeAgreement,
  summarizeScoreAgreement,
  type AgreementSummary,
  type ScoreAgreement,
  type ScorePair,
} from "@/lib/stats";
import { sqlOf, type Db } from "../client";
import type { Dialect } from "../store/dialect";
import { sqlFragments, type SqlFragments } from "../store/sqlFragments";

/**
 * A run's judges against the dataset's current human labels, counted in SQL.
 *
 * The paired labels (pairedLabelsSql) are every current label of the dataset joined with the run's verdict
 * for the same (row, metric) and, for a chunk label, the same chunk. Each
 * pair gets a judge verdict and a human verdict, both yes/no:
 * - rating labels compare the judge's rating (or chunk rating) with the label;
 * - score labels compare pass/fail at the judgment's own threshold (the run's
 *   pass mark, DEFAULT_SCORE_THRESHOLD when none was stored) on both sides, so
 *   κ and the confusion matrix exist for score judges too; their Spearman and
 *   mean absolute difference come from the raw scores (readScorePairs).
 * and an outcome: judged (both verdicts known), error (the judgment or the
 * chunk's verdict errored), elsewhere: a judged (done) row's whole-row label
 * given on another response than the one this run judged (its responseHash
 * set and different from the run's generated response's, or the dataset row's
 * for a run that uses the dataset's), or unjudged (no judgment, pending,
 * skipped, or no verdict, wherever the label was given). Errors
 * and unjudged pairs are counted beside the matrix; labels given elsewhere are
 * counted nowhere but in their own column, so the panels can say how many were
 * left out.
 *
 * Binds @runId and @datasetId (named, so the fragment can be reused in any query). Per-row lookups go through the unique
 * indexes (JudgmentItem runId+rowId+metric, ChunkJudgment judgmentId+position).
 */
function verdictColumns(suffix: string): string {
  const j = `j${suffix}`;
  const c = `c${suffix}`;
  const threshold = `COALESCE(${j}."threshold", ${DEFAULT_SCORE_THRESHOLD})`;
  return `${j}."score" AS "judgeScore${suffix}",
    CASE
      WHEN ${j}."status" = 'error' THEN 'error'
      WHEN l."chunkPosition" >= 0 AND ${j}."status" = 'done' AND ${c}."errorMessage" IS NOT NULL THEN 'error'
      WHEN ${j}."status" = 'done' AND ${givenOnOtherResponse(judgedResponseHash(suffix))} THEN 'elsewhere'
      WHEN ${j}."status" = 'done' AND (CASE WHEN l."chunkPosition" >= 0 THEN ${c}."rating" IS NOT NULL WHEN l."kind" = 'score' THEN ${j}."score" IS NOT NULL ELSE ${j}."rating" IS NOT NULL END) THEN 'judged'
      ELSE 'unjudged'
    END AS "outcome${suffix}",
    CASE
      WHEN l."chunkPosition" >= 0 THEN ${c}."rating"
      WHEN l."kind" = 'score' THEN CASE WHEN ${j}."score" IS NULL THEN NULL WHEN ${j}."score" >= ${threshold} THEN 'yes' ELSE 'no' END
      ELSE ${j}."rating"
    END AS "judge${suffix}",
    CASE
      WHEN l."kind" = 'score' THEN CASE WHEN l."score" >= ${threshold} THEN 'yes' ELSE 'no' END
      ELSE l."rating"
    END AS "human${suffix}"`;
}

/**
 * Whether label l was given on another response than `judged` (the hash of
 * what the run judged): only a label that records a hash can be; one without
 * (a metric that does not read the response, a chunk label) judged what every
 * run shares. Every query that sets labels apart by response uses this.
 */
export function givenOnOtherResponse(judged: string): string {
  return `(l."chunkPosition" < 0 AND l."responseHash" IS NOT NULL AND l."responseHash" IS DISTINCT FROM ${judged})`;
}

/**
 * The hash of the response the run judged on the label's row: its generation's
 * when the run generates (the Run lookup is uncorrelated, so SQLite reads it
 * once per query), else the dataset row's (r, joined once in the query).
 */
export function judgedResponseHash(suffix: string): string {
  return `(CASE WHEN run${suffix}."gen${suffix}" IS NOT NULL THEN g${suffix}."responseHash" ELSE r."responseHash" END)`;
}

function verdictJoins(f: SqlFragments, runParam: string, suffix: string): string {
  const j = `j${suffix}`;
  const c = `c${suffix}`;
  return `LEFT JOIN "JudgmentItem" ${j} ON ${j}."runId" = @${runParam} AND ${j}."rowId" = l."rowId" AND ${j}."metric" = l."metric" AND ${j}."trial" = 1
  ${f.leftJoinOne("ChunkJudgment", c, ["rating", "errorMessage"], `l."chunkPosition" >= 0 AND ${c}."judgmentId" = ${j}."id" AND ${c}."position" = l."chunkPosition"`)}
  LEFT JOIN "Generation" g${suffix}${f.indexHint("Generation_response_hash_idx")} ON g${suffix}."runId" = @${runParam} AND g${suffix}."rowId" = l."rowId" AND g${suffix}."trial" = 1
  LEFT JOIN (SELECT "generationModel" AS "gen${suffix}" FROM "Run" WHERE "id" = @${runParam}) run${suffix} ON true`;
}

/**
 * The label's row, for the hash of the dataset's own response: through the
 * covering index, since the row itself is wide (request, response, trace) and
 * SQLite without statistics would read it by primary key (PostgreSQL plans
 * from statistics and takes no hint).
 */
const labelRowJoin = (f: SqlFragments) =>
  `JOIN "DatasetRow" r${f.indexHint("DatasetRow_response_hash_idx")} ON r."id" = l."rowId"`;

/** Every label of the dataset with each run's verdict beside it: columns outcome, judge, human, judgeScore with the run's suffix. */
function pairedSql(f: SqlFragments, runs: readonly (readonly [param: string, suffix: string])[]): string {
  return `
  SELECT l."rowId", l."metric", l."chunkPosition", l."kind", l."score" AS "humanScore",
    ${runs.map(([, suffix]) => verdictColumns(suffix)).join(",\n    ")}
  FROM "HumanLabel" l
  ${labelRowJoin(f)}
  ${runs.map(([param, suffix]) => verdictJoins(f, param, suffix)).join("\n  ")}
  WHERE l."datasetId" = @datasetId`;
}

type Store = { dialect: Dialect };

/**
 * Every label of the dataset with one run's verdict (binds @runId,
 * @datasetId), in the store's SQL (`sqlOf(db)`): agreementRowQueries.ts
 * lists rows from it.
 */
export function pairedLabelsSql(store: Store): string {
  return pairedSql(sqlFragments(store), [["runId", ""]]);
}

/**
 * The labels of one table page's rows with one run's verdict beside each
 * (binds @runId and @rowIds, the page's ids as ONE array value), in the
 * store's SQL: the rows table's label markers, judged exactly as agreement
 * counts them. The labels are found through their (rowId, metric,
 * chunkPosition) unique index.
 */
export function pairedLabelsOfRowsSql(store: Store): string {
  const f = sqlFragments(store);
  return `
  SELECT l."rowId", l."metric", l."chunkPosition", l."kind", l."rating" AS "humanRating", l."score" AS "humanScore",
    ${verdictColumns("")}
  FROM "HumanLabel" l
  ${labelRowJoin(f)}
  ${verdictJoins(f, "runId", "")}
  WHERE ${f.inList('l."rowId"', "@rowIds")}`;
}

type RunRef = { id: string; datasetId: string };

export type AgreementCounts = {
  metric: string;
  /** rating | score; chunk metrics report "rating" with perChunk true. */
  kind: "rating" | "score";
  perChunk: boolean;
  yesYes: number;
  yesNo: number;
  noYes: number;
  noNo: number;
  errors: number;
  unjudged: number;
  /** Labels given on another response than the one the run judged: left out of everything above. */
  otherResponse: number;
};

function countColumns(suffix: string): string {
  const judged = `"outcome${suffix}" = 'judged'`;
  const cell = (judge: string, human: string) =>
    `COUNT(*) FILTER (WHERE ${judged} AND "judge${suffix}" = '${judge}' AND "human${suffix}" = '${human}')`;
  const outcome = (name: string) => `COUNT(*) FILTER (WHERE "outcome${suffix}" = '${name}')`;
  return `${cell("yes", "yes")} AS "yesYes${suffix}", ${cell("yes", "no")} AS "yesNo${suffix}",
    ${cell("no", "yes")} AS "noYes${suffix}", ${cell("no", "no")} AS "noNo${suffix}",
    ${outcome("error")} AS "errors${suffix}", ${outcome("unjudged")} AS "unjudged${suffix}",
    ${outcome("elsewhere")} AS "otherResponse${suffix}"`;
}

type CountRow = Record<string, string | number>;

function countsOf(row: CountRow, suffix: string): AgreementCounts {
  const n = (name: string) => Number(row[`${name}${suffix}`] ?? 0);
  return {
    metric: String(row.metric),
    kind: row.kind === "score" ? "score" : "rating",
    perChunk: Number(row.perChunk) === 1,
    yesYes: n("yesYes"),
    yesNo: n("yesNo"),
    noYes: n("noYes"),
    noNo: n("noNo"),
    errors: n("errors"),
    unjudged: n("unjudged"),
    otherResponse: n("otherResponse"),
  };
}

/** The confusion cells, errors and unjudged labels of every labelled metric of a run, in one GROUP BY. */
export async function readAgreementCounts(db: Db, run: RunRef): Promise<AgreementCounts[]> {
  const sql = sqlOf(db);
  const rows = await sql.all<CountRow>(
    `WITH paired AS (${pairedLabelsSql(sql)})
     SELECT "metric", MAX("kind") AS "kind", MAX("chunkPosition") >= 0 AS "perChunk", ${countColumns("")}
     FROM paired GROUP BY "metric" ORDER BY "metric"`,
    { runId: run.id, datasetId: run.datasetId },
  );
  return rows.map((row) => countsOf(row, ""));
}

/**
 * Two runs of one dataset in a single pass over its labels: each run's counts
 * and the paired counts (labels both judged) per metric, what the compare
 * page needs, at the cost of one run's read plus one more join per label.
 */
export async function readComparedAgreementCounts(
  db: Db,
  runA: RunRef,
  runB: RunRef,
): Promise<{ metric: string; a: AgreementCounts; b: AgreementCounts; paired: PairedRunCounts }[]> {
  if (runA.datasetId !== runB.datasetId) throw new Error("runs of different datasets share no labels");
  const bothJudged = `"outcomeA" = 'judged' AND "outcomeB" = 'judged'`;
  const agreeA = `"judgeA" = "humanA"`;
  const agreeB = `"judgeB" = "humanB"`;
  const sql = sqlOf(db);
  const both = (condition: string) => `COUNT(*) FILTER (WHERE ${bothJudged} AND ${condition})`;
  const rows = await sql.all<CountRow>(
    `WITH p AS (${pairedSql(sqlFragments(sql), [
      ["runA", "A"],
      ["runB", "B"],
    ])})
     SELECT "metric", MAX("kind") AS "kind", MAX("chunkPosition") >= 0 AS "perChunk",
       ${countColumns("A")}, ${countColumns("B")},
       ${both(`${agreeA} AND ${agreeB}`)} AS "bothAgree",
       ${both(`${agreeA} AND NOT ${agreeB}`)} AS "onlyAAgrees",
       ${both(`NOT ${agreeA} AND ${agreeB}`)} AS "onlyBAgrees",
       ${both(`NOT ${agreeA} AND NOT ${agreeB}`)} AS "bothDisagree"
     FROM p GROUP BY "metric" ORDER BY "metric"`,
    { runA: runA.id, runB: runB.id, datasetId: runA.datasetId },
  );
  return rows.map((row) => ({
    metric: String(row.metric),
    a: countsOf(row, "A"),
    b: countsOf(row, "B"),
    paired: {
      metric: String(row.metric),
      bothAgree: Number(row.bothAgree),
      onlyAAgrees: Number(row.onlyAAgrees),
      onlyBAgrees: Number(row.onlyBAgrees),
      bothDisagree: Number(row.bothDisagree),
    },
  }));
}

/** The judge's and the person's scores for a score metric, one page of rows after a row number. */
export async function readScorePairsPage(
  db: Db,
  run: RunRef,
  metric: string,
  afterRowNumber: number,
  limit = 1000,
): Promise<(ScorePair & { rowNumber: number })[]> {
  const sql = sqlOf(db);
  return sql.all<ScorePair & { rowNumber: number }>(
    `WITH paired AS (${pairedLabelsSql(sql)} AND l."metric" = @metric AND l."kind" = 'score')
     SELECT r."rowNumber", p."judgeScore" AS "judge", p."humanScore" AS "human"
     FROM paired p JOIN "DatasetRow" r ON r."id" = p."rowId"
     WHERE p."outcome" = 'judged' AND r."rowNumber" > @after
     ORDER BY r."rowNumber" LIMIT @limit`,
    {
      runId: run.id,
      datasetId: run.datasetId,
      metric,
      after: afterRowNumber,
      limit: Math.min(Math.max(1, limit), 5000),
    },
  );
}

/** Every score pair of a metric, read a page at a time (two numbers per labelled row in memory). */
export async function readScorePairs(db: Db, run: RunRef, metric: string, pageSize = 1000): Promise<ScorePair[]> {
  const pairs: ScorePair[] = [];
  let after = 0;
  for (;;) {
    const page = await readScorePairsPage(db, run, metric, after, pageSize);
    for (const { judge, human } of page) pairs.push({ judge, human });
    if (page.length < pageSize) return pairs;
    after = page[page.length - 1].rowNumber;
  }
}

export type JudgeAgreement = AgreementSummary & {
  metric: string;
  kind: "rating" | "score";
  perChunk: boolean;
  unjudged: number;
  /** Labels given on another response than the one the run judged, left out of every figure. */
  otherResponse: number;
  /** Score metrics only: Spearman's ρ and the mean absolute difference on the raw scores. */
  scores: ScoreAgreement | null;
};

/** One judge's figures from its counts; a score judge's Spearman and MAD read its score pairs (paged). */
export async function toJudgeAgreement(db: Db, run: RunRef, counts: AgreementCounts): Promise<JudgeAgreement> {
  const { metric, kind, perChunk, errors, unjudged, otherResponse, yesYes, yesNo, noYes, noNo } = counts;
  return {
    ...summarizeAgreement({ yesYes, yesNo, noYes, noNo }, errors),
    metric,
    kind,
    perChunk,
    unjudged,
    otherResponse,
    scores: kind === "score" ? summarizeScoreAgreement(await readScorePairs(db, run, metric)) : null,
  };
}

/** Agreement per judge for one run: what the run page's agreement panel and the CLI show. */
export async function getRunAgreement(db: Db, run: RunRef): Promise<JudgeAgreement[]> {
  const agreement: JudgeAgreement[] = [];
  // One judge after another: a score judge's pairs are read in pages, and only one judge's at a time.
  for (const counts of await readAgreementCounts(db, run)) agreement.push(await toJudgeAgreement(db, run, counts));
  return agreement;
}

export type PairedRunCounts = {
  metric: string;
  bothAgree: number;
  onlyAAgrees: number;
  onlyBAgrees: number;
  bothDisagree: number;
};

/**
 * Two runs of the same dataset on the labels both judged (errors and
 * unjudged on either side left out), per metric: the counts the paired
 * McNemar test takes (lib/stats pairedAgreementTest).
 */
export async function readPairedRunAgreement(db: Db, runA: RunRef, runB: RunRef): Promise<PairedRunCounts[]> {
  return (await readComparedAgreementCounts(db, runA, runB))
    .map((row) => row.paired)
    .filter((paired) => paired.bothAgree + paired.onlyAAgrees + paired.onlyBAgrees + paired.bothDisagree > 0);
}
