import type { Db } from "../client";

/**
 * Imports owned by a server process. An upload's dataset stays "importing"
 * until its last row is in; if the process streaming it dies, nothing else
 * would ever finish or remove it. So the owning process records itself on the
 * dataset and renews a heartbeat while it works, and any process can discard
 * imports whose owner is gone (lib/server/importOwnership.ts decides who is).
 */

/** Marks a just-begun import as owned by `owner`, with a fresh heartbeat. */
export async function claimImport(db: Db, datasetId: string, owner: string, now = new Date()): Promise<void> {
  await db.dataset.updateMany({
    where: { id: datasetId, status: "importing" },
    data: { importOwner: owner, importHeartbeatAt: now },
  });
}

/** Renews the heartbeat of every import `owner` still has under way. */
export async function renewImportHeartbeats(db: Db, owner: string, now = new Date()): Promise<number> {
  const result = await db.dataset.updateMany({
    where: { status: "importing", importOwner: owner },
    data: { importHeartbeatAt: now },
  });
  return result.count;
}

/**
 * Discards owned imports whose owner is not alive (as `isOwnerAlive` says) or
 * whose heartbeat is older than `staleBefore` (an owner on another machine, or
 * one that hangs). Imports without an owner (the CLI's) are left to
 * deleteAbandonedImports' age rule. Returns how many were removed.
 */
export async function discardOrphanedImports(
  db: Db,
  options: { isOwnerAlive: (owner: string) => boolean; staleBefore: Date },
): Promise<number> {
  const owned = await db.dataset.findMany({
    where: { status: "importing", importOwner: { not: null } },
    select: { id: true, importOwner: true, importHeartbeatAt: true },
  });
  const orphaned = owned.filter(
    (dataset) =>
      !dataset.importOwner ||
      !options.isOwnerAlive(dataset.importOwner) ||
      !dataset.importHeartbeatAt ||
      dataset.importHeartbeatAt < options.staleBefore,
  );
  if (orphaned.length === 0) return 0;
  const result = await db.dataset.deleteMany({
    where: { id: { in: orphaned.map((dataset) => dataset.id) }, status: "importing" },
  });
  return result.count;
}
