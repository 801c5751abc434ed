import { sqlOf, type Db } from "../client";
import { sqlFragments } from "../store/sqlFragments";

/**
 * The last label a key needs, held for the labeller who opened it (LabelReservation), so two people are
 * not handed the same last slot at once. A claim is one statement on the store's clock: it takes a free
 * or expired slot, or renews the claimant's own; someone else's live claim stands.
 */
export const RESERVATION_MS = 10 * 60_000;

export type ReservationKey = { datasetId: string; rowId: string; metric: string; chunkPosition: number };

/** Claims the key for `labeller`; true when they hold it now, false when someone else does. */
export async function reserveLastSlot(db: Db, key: ReservationKey, labeller: string): Promise<boolean> {
  const sql = sqlOf(db);
  const f = sqlFragments(sql);
  const params = { ...key, labeller };
  await sql.run(
    `INSERT INTO "LabelReservation" ("rowId", "metric", "chunkPosition", "datasetId", "labeller", "until")
     VALUES (@rowId, @metric, @chunkPosition, @datasetId, @labeller, ${f.storeTime(RESERVATION_MS)})
     ON CONFLICT ("rowId", "metric", "chunkPosition") DO UPDATE SET "labeller" = excluded."labeller", "until" = excluded."until"
     WHERE "LabelReservation"."labeller" = excluded."labeller" OR "LabelReservation"."until" < ${f.storeTime()}`,
    params,
  );
  const holder = await sql.get<{ labeller: string }>(
    `SELECT "labeller" FROM "LabelReservation" WHERE "rowId" = @rowId AND "metric" = @metric AND "chunkPosition" = @chunkPosition`,
    params,
  );
  return holder?.labeller === labeller;
}

/** Lets go of the key (its label was given, or the labeller moved on). */
export async function releaseSlot(db: Db, key: Omit<ReservationKey, "datasetId">, labeller: string): Promise<void> {
  await sqlOf(db).run(
    `DELETE FROM "LabelReservation" WHERE "rowId" = ? AND "metric" = ? AND "chunkPosition" = ? AND "labeller" = ?`,
    [key.rowId, key.metric, key.chunkPosition, labeller],
  );
}

/** SQL: whether someone other than @viewer holds a live claim on a key (its row, metric and position as SQL). */
export function reservedByOther(now: string, rowId: string, metric: string, position: string): string {
  return `EXISTS (SELECT 1 FROM "LabelReservation" v WHERE v."rowId" = ${rowId} AND v."metric" = ${metric}
    AND v."chunkPosition" = ${position} AND v."labeller" <> @viewer AND v."until" > ${now})`;
}

/** How many people labelled a row's whole-row key, and whether `labeller` is one of them. */
export async function readKeyLabelCount(
  db: Db,
  key: { rowId: string; metric: string },
  labeller: string,
): Promise<{ labels: number; mine: boolean }> {
  const counts = await sqlOf(db).get<{ labels: number; mine: number }>(
    `SELECT COUNT(*) AS "labels", COUNT(*) FILTER (WHERE "labeller" = ?) AS "mine"
     FROM "PersonLabel" WHERE "rowId" = ? AND "metric" = ? AND "chunkPosition" = -1`,
    [labeller, key.rowId, key.metric],
  );
  return { labels: Number(counts?.labels ?? 0), mine: Number(counts?.mine ?? 0) > 0 };
}
