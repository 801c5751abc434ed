import { sqlOf, type Db } from "../client";
import { sqlFragments } from "../store/sqlFragments";

/**
 * The shared in-flight limit of an LLM endpoint: one row per slot, 0 to the
 * largest limit any worker configured, each held by at most one worker. A
 * worker takes only slots below its own configured limit, so the calls in
 * flight at an endpoint never exceed the limit, whatever the number of
 * workers. A slot is held only while its holder heartbeats: a worker silent
 * for the slot timeout (a few seconds, well before it counts as gone) loses
 * its slots (releaseSlotsOfSilentHolders), and a gone one everything else
 * (claims.ts reclaimFromGoneWorkers).
 */
export async function ensureSlots(db: Db, endpoint: string, limit: number): Promise<void> {
  const sql = sqlOf(db);
  const existing = await sql.get<{ n: number }>(
    `SELECT COUNT(*) AS "n" FROM "InFlightSlot" WHERE "endpoint" = ? AND "slot" < ?`,
    [endpoint, limit],
  );
  if ((existing?.n ?? 0) >= limit) return;
  for (let slot = 0; slot < limit; slot += 1)
    await sql.run(
      `INSERT INTO "InFlightSlot" ("endpoint", "slot") VALUES (?, ?) ON CONFLICT ("endpoint", "slot") DO NOTHING`,
      [endpoint, slot],
    );
}

/** Takes up to `want` free slots below `limit` for `holder`; returns the slots taken (possibly none). */
export async function takeSlots(
  db: Db,
  endpoint: string,
  holder: string,
  limit: number,
  want: number,
): Promise<number[]> {
  const sql = sqlOf(db);
  const { skipLocked, storeTime } = sqlFragments(sql);
  const taken = await sql.transaction(
    (tx) =>
      tx.all<{ slot: number }>(
        `UPDATE "InFlightSlot" SET "holder" = ?, "heldAt" = ${storeTime()}
         WHERE "endpoint" = ? AND "slot" IN (SELECT "slot" FROM "InFlightSlot" WHERE "endpoint" = ? AND "slot" < ? AND "holder" IS NULL ORDER BY "slot" LIMIT ?${skipLocked()})
         RETURNING "slot"`,
        [holder, endpoint, endpoint, limit, want],
      ),
    { readCommitted: true },
  );
  return taken.map((row) => Number(row.slot));
}

/** Gives slots back; only the holder's own are freed. */
export async function releaseSlots(db: Db, endpoint: string, holder: string, slots: number[]): Promise<void> {
  if (slots.length === 0) return;
  const sql = sqlOf(db);
  const { inList } = sqlFragments(sql);
  await sql.run(
    `UPDATE "InFlightSlot" SET "holder" = NULL, "heldAt" = NULL WHERE "endpoint" = ? AND "holder" = ? AND ${inList(`"slot"`, "?", "int")}`,
    [endpoint, holder, slots],
  );
}

/** Every slot a holder has (its clean stop). */
export async function releaseAllSlots(db: Db, holder: string): Promise<void> {
  await sqlOf(db).run(`UPDATE "InFlightSlot" SET "holder" = NULL, "heldAt" = NULL WHERE "holder" = ?`, [holder]);
}

/** The slots the store says `holder` has now: the limiter checks that a silent spell did not cost it some. */
export async function heldSlots(db: Db, endpoint: string, holder: string): Promise<number[]> {
  const rows = await sqlOf(db).all<{ slot: number }>(
    `SELECT "slot" FROM "InFlightSlot" WHERE "endpoint" = ? AND "holder" = ?`,
    [endpoint, holder],
  );
  return rows.map((row) => Number(row.slot));
}

/**
 * Frees the slots of holders that have not heartbeat for `silentForMs` (by the store's clock): a killed
 * worker's slots would otherwise throttle every other worker until it counted as gone. Returns how many.
 * With `sweeper`, only if that worker's own heartbeat is within `freshWithinMs` when the statement runs: a
 * sweep decided before a stall of the whole store (a lock) and run after it frees nothing, since every live
 * worker then looks as silent as the sweeper itself.
 */
export async function releaseSlotsOfSilentHolders(
  db: Db,
  silentForMs: number,
  sweeper?: { id: string; freshWithinMs: number },
): Promise<number> {
  const sql = sqlOf(db);
  const { storeTime } = sqlFragments(sql);
  const sweeperFresh = sweeper
    ? ` AND EXISTS (SELECT 1 FROM "Worker" WHERE "id" = ? AND "stoppedAt" IS NULL AND "heartbeatAt" >= ${storeTime(-sweeper.freshWithinMs)})`
    : "";
  return sql.run(
    `UPDATE "InFlightSlot" SET "holder" = NULL, "heldAt" = NULL
     WHERE "holder" IS NOT NULL AND "holder" NOT IN (
       SELECT "id" FROM "Worker" WHERE "stoppedAt" IS NULL AND "heartbeatAt" >= ${storeTime(-silentForMs)})${sweeperFresh}`,
    sweeper ? [sweeper.id] : [],
  );
}
