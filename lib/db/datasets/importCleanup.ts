import { sqlOf, type Db } from "../client";
import { readStoreClock } from "../store/storeClock";

/**
 * Imports owned by a server process. An upload's dataset stays "importing"
 * until its last row is in; if the process streaming it dies, nothing else
 * would ever finish or remove it. So the owning process records itself on the
 * dataset and renews a heartbeat while it works, and any process can discard
 * imports whose owner is gone (lib/server/importOwnership.ts decides who is).
 * Heartbeats are written and found stale by the store's clock, never by the
 * clock of the server asking: a server on another machine whose clock is off
 * neither discards a live upload nor keeps a dead one.
 */

/** Marks a just-begun import as owned by `owner`, with a fresh heartbeat. */
export async function claimImport(db: Db, datasetId: string, owner: string): Promise<void> {
  const now = await readStoreClock(sqlOf(db));
  await db.dataset.updateMany({
    where: { id: datasetId, status: "importing" },
    data: { importOwner: owner, importHeartbeatAt: now },
  });
}

/** Renews the heartbeat of every import `owner` still has under way. */
export async function renewImportHeartbeats(db: Db, owner: string): Promise<number> {
  const now = await readStoreClock(sqlOf(db));
  const result = await db.dataset.updateMany({
    where: { status: "importing", importOwner: owner },
    data: { importHeartbeatAt: now },
  });
  return result.count;
}

/**
 * Discards owned imports whose owner is not alive (as `isOwnerAlive` says) or
 * whose heartbeat is older than `staleAfterMs` by the store's clock (an owner
 * on another machine, or one that hangs). Imports without an owner (the CLI's)
 * are left to deleteAbandonedImports' age rule. Returns how many were removed.
 */
export async function discardOrphanedImports(
  db: Db,
  options: { isOwnerAlive: (owner: string) => boolean; staleAfterMs: number },
): Promise<number> {
  const staleBefore = new Date((await readStoreClock(sqlOf(db))).getTime() - options.staleAfterMs);
  const owned = await db.dataset.findMany({
    where: { status: "importing", importOwner: { not: null } },
    select: { id: true, importOwner: true, importHeartbeatAt: true },
  });
  const ownerGone = owned.filter((dataset) => !dataset.importOwner || !options.isOwnerAlive(dataset.importOwner));
  const stale = owned.filter(
    (dataset) =>
      !ownerGone.includes(dataset) && (!dataset.importHeartbeatAt || dataset.importHeartbeatAt < staleBefore),
  );
  if (ownerGone.length === 0 && stale.length === 0) return 0;
  const result = await db.dataset.deleteMany({
    where: {
      status: "importing",
      OR: [
        { id: { in: ownerGone.map((dataset) => dataset.id) } },
        // Still stale as it is deleted: a heartbeat renewed meanwhile keeps its upload.
        {
          id: { in: stale.map((dataset) => dataset.id) },
          OR: [{ importHeartbeatAt: null }, { importHeartbeatAt: { lt: staleBefore } }],
        },
      ],
    },
  });
  return result.count;
}
