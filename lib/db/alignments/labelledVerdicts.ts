import { sqlOf, type Db } from "../client";
import { pairedLabelsSql } from "../labels/agreementQueries";

/**
 * A judge's labels on a dataset, each with the verdict a run gave on the same row (or chunk): what an
 * alignment splits into training and held-out rows. Read with the agreement panel's own SQL, so a label
 * counts here exactly as it counts there: a score label as pass/fail at the judgment's threshold, a
 * label given on another response than the run judged left out (it would teach the judge a verdict on
 * text it never saw).
 */
export type LabelledVerdict = {
  /** "<rowId>" for a whole-row label, "<rowId>#<chunk>" for a chunk's. */
  key: string;
  rowId: string;
  chunkPosition: number;
  label: "yes" | "no";
  /** The run's verdict; null when it errored or did not judge the row. */
  verdict: "yes" | "no" | null;
};

type Paired = {
  rowId: string;
  metric: string;
  chunkPosition: number;
  outcome: string;
  judge: string | null;
  human: string | null;
};

export async function readLabelledVerdicts(
  db: Db,
  run: { id: string; datasetId: string },
  metric: string,
): Promise<LabelledVerdict[]> {
  const sql = sqlOf(db);
  const rows = await sql.all<Paired>(
    `SELECT p."rowId", p."metric", p."chunkPosition", p."outcome", p."judge", p."human"
     FROM (${pairedLabelsSql(sql)}) p
     WHERE p."metric" = @metric AND p."outcome" <> 'elsewhere'
     ORDER BY p."rowId", p."chunkPosition"`,
    { runId: run.id, datasetId: run.datasetId, metric },
  );
  return rows.flatMap((row) => {
    if (row.human !== "yes" && row.human !== "no") return [];
    const chunkPosition = Number(row.chunkPosition);
    const verdict = row.outcome === "judged" && (row.judge === "yes" || row.judge === "no") ? row.judge : null;
    return [
      {
        key: chunkPosition < 0 ? row.rowId : `${row.rowId}#${chunkPosition}`,
        rowId: row.rowId,
        chunkPosition,
        label: row.human,
        verdict,
      },
    ];
  });
}

/** The reasons labellers gave for a judge's labels on a dataset, by label key ("<rowId>" or "<rowId>#<chunk>"). */
export async function readLabelReasons(db: Db, datasetId: string, metric: string): Promise<Map<string, string>> {
  const rows = await sqlOf(db).all<{ rowId: string; chunkPosition: number; reason: string }>(
    `SELECT "rowId", "chunkPosition", "reason" FROM "HumanLabel"
     WHERE "datasetId" = ? AND "metric" = ? AND "reason" IS NOT NULL`,
    [datasetId, metric],
  );
  return new Map(
    rows.map((row) => {
      const chunk = Number(row.chunkPosition);
      return [chunk < 0 ? row.rowId : `${row.rowId}#${chunk}`, row.reason];
    }),
  );
}
