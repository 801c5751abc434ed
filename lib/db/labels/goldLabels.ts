import type { SqlRunner, SqlValue } from "../store/sqlRunner";

/**
 * The gold label of a key (row × metric × chunk), kept in HumanLabel from the people's labels in
 * PersonLabel, so every reader of labels (the judge's agreement, its confusion and disagreement rows,
 * the rows table's marks, alignment) reads one label per key, as it did when one person labelled:
 *
 * - an adjudicated key keeps its adjudication (LabelAdjudication), whatever the people say;
 * - one person's label is the gold label as it was given (gold 'single', so a dataset labelled by one
 *   person reads exactly as before several people could label);
 * - yes/no labels of several people: the answer a strict majority gave (gold 'majority'); a tie has no
 *   gold label (counted apart by the agreement between people, left out of the judge's);
 * - scores of several people: their median (gold 'median').
 *
 * The gold label's reason, hash, labeller, source and time are those of the latest label that agrees
 * with it (for a median, the latest label), and its revision is the key's latest in the history.
 *
 * `keys` is a subquery of ("rowId", "metric", "chunkPosition") with the named parameters the caller binds:
 * the statements refresh those keys only, set-based, so an import refreshes a thousand keys per statement.
 */
const sameKey = (a: string, b: string) =>
  `${a}."rowId" = ${b}."rowId" AND ${a}."metric" = ${b}."metric" AND ${a}."chunkPosition" = ${b}."chunkPosition"`;

const notAdjudicated = (alias: string) =>
  `NOT EXISTS (SELECT 1 FROM "LabelAdjudication" a WHERE ${sameKey("a", alias)})`;

function upsertGold(keys: string): string {
  return `INSERT INTO "HumanLabel" ("id", "datasetId", "rowId", "metric", "chunkPosition", "kind", "rating", "score", "reason", "labelledBy", "statedBy", "labelledAt", "source", "revision", "responseHash", "hashPending", "labels", "gold")
  WITH scoped AS (
    SELECT p.* FROM (SELECT DISTINCT * FROM (${keys}) k0) k JOIN "PersonLabel" p ON ${sameKey("p", "k")}
    WHERE ${notAdjudicated("p")}
  ), tally AS (
    SELECT "rowId", "metric", "chunkPosition", COUNT(*) AS "m",
      SUM(CASE WHEN "rating" = 'yes' THEN 1 ELSE 0 END) AS "yes", SUM(CASE WHEN "rating" = 'no' THEN 1 ELSE 0 END) AS "no"
    FROM scoped GROUP BY "rowId", "metric", "chunkPosition"
  ), agreeing AS (
    SELECT s.*, t."m", ROW_NUMBER() OVER (PARTITION BY s."rowId", s."metric", s."chunkPosition" ORDER BY s."labelledAt" DESC, s."id" DESC) AS "latest"
    FROM scoped s JOIN tally t ON ${sameKey("t", "s")}
    WHERE s."kind" = 'score' OR (s."rating" = 'yes' AND t."yes" > t."no") OR (s."rating" = 'no' AND t."no" > t."yes")
  ), medians AS (
    SELECT s."rowId", s."metric", s."chunkPosition", AVG(s."score") AS "median"
    FROM scoped s JOIN tally t ON ${sameKey("t", "s")}
    WHERE s."kind" = 'score'
      AND 2 * (SELECT COUNT(*) FROM scoped q WHERE ${sameKey("q", "s")} AND q."score" <= s."score") >= t."m"
      AND 2 * (SELECT COUNT(*) FROM scoped q WHERE ${sameKey("q", "s")} AND q."score" >= s."score") >= t."m"
    GROUP BY s."rowId", s."metric", s."chunkPosition"
  )
  SELECT 'g-' || w."id", w."datasetId", w."rowId", w."metric", w."chunkPosition", w."kind", w."rating",
    CASE WHEN w."kind" = 'score' THEN md."median" ELSE w."score" END, w."reason",
    CASE WHEN w."labeller" = '' THEN NULL ELSE w."labeller" END, w."statedBy", w."labelledAt", w."source",
    COALESCE((SELECT MAX(r."revision") FROM "HumanLabelRevision" r WHERE ${sameKey("r", "w")}), 1), w."responseHash", FALSE, w."m",
    CASE WHEN w."m" = 1 THEN 'single' WHEN w."kind" = 'score' THEN 'median' ELSE 'majority' END
  FROM agreeing w LEFT JOIN medians md ON ${sameKey("md", "w")}
  WHERE w."latest" = 1
  ON CONFLICT ("rowId", "metric", "chunkPosition") DO UPDATE SET
    "kind" = excluded."kind", "rating" = excluded."rating", "score" = excluded."score", "reason" = excluded."reason",
    "labelledBy" = excluded."labelledBy", "statedBy" = excluded."statedBy", "labelledAt" = excluded."labelledAt",
    "source" = excluded."source", "revision" = excluded."revision", "responseHash" = excluded."responseHash",
    "hashPending" = FALSE, "labels" = excluded."labels", "gold" = excluded."gold"`;
}

/** Gold labels of the keys that no longer have one: no label left, or a yes/no tie. */
function deleteGoldWithoutMajority(keys: string): string {
  const majority = `EXISTS (SELECT 1 FROM "PersonLabel" p WHERE ${sameKey("p", '"HumanLabel"')} AND (p."kind" = 'score' OR
      2 * (SELECT COUNT(*) FROM "PersonLabel" q WHERE ${sameKey("q", "p")} AND q."rating" = p."rating")
        > (SELECT COUNT(*) FROM "PersonLabel" q WHERE ${sameKey("q", "p")})))`;
  return `DELETE FROM "HumanLabel" WHERE ("rowId", "metric", "chunkPosition") IN (SELECT "rowId", "metric", "chunkPosition" FROM (${keys}) k)
    AND ${notAdjudicated('"HumanLabel"')} AND NOT ${majority}`;
}

/** The keys whose people's labels differ, among `keys`: kept in LabelDisagreement for the filter and the counts. */
const keyRows = (keys: string) =>
  `("rowId", "metric", "chunkPosition") IN (SELECT "rowId", "metric", "chunkPosition" FROM (${keys}) k)`;
const insertDisagreements = (
  keys: string,
) => `INSERT INTO "LabelDisagreement" ("rowId", "metric", "chunkPosition", "datasetId")
  SELECT p."rowId", p."metric", p."chunkPosition", MAX(p."datasetId")
  FROM (SELECT DISTINCT * FROM (${keys}) k0) k JOIN "PersonLabel" p ON ${sameKey("p", "k")}
  GROUP BY p."rowId", p."metric", p."chunkPosition"
  HAVING COUNT(DISTINCT COALESCE(p."rating", CAST(p."score" AS TEXT))) > 1`;

/**
 * Refreshes the gold labels of `keys` (a subquery, its parameters in `params`) inside the caller's transaction,
 * with the keys where people differ, and moves the dataset's labels version (what cached agreement is keyed on).
 */
export async function refreshGoldLabels(
  tx: SqlRunner,
  keys: string,
  params: Readonly<Record<string, SqlValue>>,
  datasetId: string,
): Promise<void> {
  await tx.run(deleteGoldWithoutMajority(keys), params);
  await tx.run(upsertGold(keys), params);
  await tx.run(`DELETE FROM "LabelDisagreement" WHERE ${keyRows(keys)}`, params);
  await tx.run(insertDisagreements(keys), params);
  await bumpLabelsVersion(tx, datasetId);
}

/** Moves a dataset's labels version: every cached figure computed from its labels is stale from now. */
export async function bumpLabelsVersion(tx: SqlRunner, datasetId: string): Promise<void> {
  await tx.run(`UPDATE "Dataset" SET "labelsVersion" = "labelsVersion" + 1 WHERE "id" = ?`, [datasetId]);
}

/** One key as the `keys` subquery (binds @rowId, @metric, @chunkPosition), cast so PostgreSQL knows their types. */
export const ONE_KEY = `SELECT CAST(@rowId AS TEXT) AS "rowId", CAST(@metric AS TEXT) AS "metric", CAST(@chunkPosition AS INTEGER) AS "chunkPosition"`;
