import { sqlOf, type Db } from "../client";
import { sqlFragments } from "../store/sqlFragments";
import { loadRowsForWork, type WorkRow } from "./workRows";
import { readsConversation, readsTrace } from "@/lib/contract/metricCatalog";

export type ClaimedJudgment = { id: string; rowId: string; metric: string; trial: number };
export type ClaimedGeneration = { id: string; rowId: string; trial: number };

type WorkTable = "JudgmentItem" | "Generation";

/**
 * Work is shared by claiming it: a worker takes the next `take` pending items
 * of a run (in id order, which is row order) and marks them running under its
 * name, in one statement. On PostgreSQL the candidates are locked and rows
 * another claimer holds are skipped (FOR UPDATE SKIP LOCKED), so concurrent
 * claimers neither wait for nor share an item; SQLite writes one at a time.
 * Only the claimant may write an item's result (judgmentResults.ts, runWrites.ts), and a claim
 * outlives its worker by at most the worker timeout (reclaimFromGoneWorkers).
 */
async function claim<T>(
  db: Db,
  table: WorkTable,
  columns: string,
  runId: string,
  workerId: string,
  take: number,
): Promise<T[]> {
  const sql = sqlOf(db);
  const { skipLocked, storeTime } = sqlFragments(sql);
  return sql.transaction(
    (tx) =>
      tx.all<T>(
        `UPDATE "${table}" SET "status" = 'running', "claimedBy" = ?, "claimedAt" = ${storeTime()}
         WHERE "id" IN (SELECT "id" FROM "${table}" WHERE "runId" = ? AND "status" = 'pending' ORDER BY "id" LIMIT ?${skipLocked()})
         RETURNING ${columns}`,
        [workerId, runId, take],
      ),
    { readCommitted: true },
  );
}

/**
 * Claims up to `take` pending judgments of a run, with the rows they need; `traceReaders` names the run's own
 * judges (G-Eval's, by metric) that read the trace besides the catalogue's.
 */
export async function claimJudgments(
  db: Db,
  runId: string,
  workerId: string,
  take: number,
  traceReaders: ReadonlySet<string> = new Set(),
): Promise<{ items: ClaimedJudgment[]; rows: Map<string, WorkRow> }> {
  const items = await claim<ClaimedJudgment>(
    db,
    "JudgmentItem",
    `"id", "rowId", "metric", "trial"`,
    runId,
    workerId,
    take,
  );
  items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const withTrace = [
    ...new Set(
      items.filter((item) => readsTrace(item.metric) || traceReaders.has(item.metric)).map((item) => item.rowId),
    ),
  ];
  const withConversation = [
    ...new Set(items.filter((item) => readsConversation(item.metric)).map((item) => item.rowId)),
  ];
  return {
    items,
    rows: await loadRowsForWork(db, runId, [...new Set(items.map((item) => item.rowId))], {
      withTrace,
      withConversation,
    }),
  };
}

/** Claims up to `take` pending generations of a run, with their rows. */
export async function claimGenerations(
  db: Db,
  runId: string,
  workerId: string,
  take: number,
): Promise<{ items: ClaimedGeneration[]; rows: Map<string, WorkRow> }> {
  const items = await claim<ClaimedGeneration>(db, "Generation", `"id", "rowId", "trial"`, runId, workerId, take);
  items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { items, rows: await loadRowsForWork(db, runId, [...new Set(items.map((item) => item.rowId))]) };
}

/** Puts what a worker still holds of a run back in the pool: it stopped (cancel, budget, shutdown) before judging it. */
export async function releaseClaims(db: Db, runId: string, workerId: string): Promise<number> {
  const sql = sqlOf(db);
  let released = 0;
  for (const table of ["JudgmentItem", "Generation"] as const)
    released += await sql.run(
      `UPDATE "${table}" SET "status" = 'pending', "claimedBy" = NULL, "claimedAt" = NULL
       WHERE "claimedBy" = ? AND "runId" = ? AND "status" = 'running'`,
      [workerId, runId],
    );
  return released;
}

/** Work of a run that some worker holds now (claimed, result not yet written): judgments and generations. */
export async function countClaimedWork(db: Db, runId: string): Promise<{ judgments: number; generations: number }> {
  const sql = sqlOf(db);
  const count = async (table: WorkTable) =>
    (
      await sql.get<{ n: number }>(
        `SELECT COUNT(*) AS "n" FROM "${table}" WHERE "runId" = ? AND "status" = 'running'`,
        [runId],
      )
    )?.n ?? 0;
  return { judgments: await count("JudgmentItem"), generations: await count("Generation") };
}

/**
 * Returns to the pool whatever workers that stopped heartbeating for
 * `timeoutMs` (killed, machine gone) or stopped for good still hold: claimed
 * items, in-flight slots, reserved budget. Any worker runs this every few
 * seconds, so claimed work is back within the timeout plus that interval.
 * Items are found through the claimedBy index: `"claimedBy" > ''` (a worker's id
 * is never empty) is a range SQLite reads from it. With `IS NOT NULL` SQLite,
 * which keeps no statistics here, scanned the whole table instead: 4.9 s on
 * two 100,000-row runs (1.4 million judgments), every 5 s in every worker and
 * web server, idle or not.
 */
export async function reclaimFromGoneWorkers(db: Db, timeoutMs: number): Promise<{ items: number; slots: number }> {
  const sql = sqlOf(db);
  const { storeTime } = sqlFragments(sql);
  const live = `SELECT "id" FROM "Worker" WHERE "stoppedAt" IS NULL AND "heartbeatAt" >= ${storeTime(-timeoutMs)}`;
  let items = 0;
  for (const table of ["JudgmentItem", "Generation"] as const)
    items += await sql.run(
      `UPDATE "${table}" SET "status" = 'pending', "claimedBy" = NULL, "claimedAt" = NULL
       WHERE "claimedBy" > '' AND "status" = 'running' AND "claimedBy" NOT IN (${live})`,
    );
  const slots = await sql.run(
    `UPDATE "InFlightSlot" SET "holder" = NULL, "heldAt" = NULL WHERE "holder" IS NOT NULL AND "holder" NOT IN (${live})`,
  );
  // Over all of a gone worker's rows its holds sum to what it still had reserved (a row's own may be negative:
  // a reservation is taken on one row and freed on another), so every row of it is zeroed.
  await sql.run(
    `UPDATE "RunWorkerSpending" SET "heldCalls" = 0 WHERE "heldCalls" <> 0 AND "workerId" NOT IN (${live})`,
  );
  return { items, slots };
}
