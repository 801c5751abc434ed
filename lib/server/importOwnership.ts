import { randomUUID } from "node:crypto";
import os from "node:os";
import { getDb } from "@/lib/db/client";
import { claimImport, discardOrphanedImports, renewImportHeartbeats } from "@/lib/db/datasets/importCleanup";
import type { DatasetSink } from "@/lib/contract/datasetSink";
import { logServerError } from "./logError";

/**
 * This server process as the owner of the uploads it streams in:
 * `host:pid:instance`. The instance id tells this process from an earlier one
 * that had the same pid (a container's server is often pid 1 every time).
 */
type OwnershipState = { owner: string; active: number; timer: NodeJS.Timeout | null };
const state: OwnershipState = ((
  globalThis as unknown as { assayImportOwnership?: OwnershipState }
).assayImportOwnership ??= {
  owner: `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
  active: 0,
  timer: null,
});

/** How often an owner renews its heartbeat, and how old a heartbeat may get before its import is discarded. */
export const HEARTBEAT_INTERVAL_MS = 10_000;
export const HEARTBEAT_STALE_MS = 60_000;

export function importOwnerId(): string {
  return state.owner;
}

/**
 * Whether the process named by `owner` may still be working. On this machine
 * that is known at once (is the pid alive, and is it not an earlier process
 * that had our pid); an owner on another machine counts as alive, and only
 * its heartbeat can tell otherwise.
 */
export function isImportOwnerAlive(owner: string, self = state.owner): boolean {
  if (owner === self) return true;
  const match = /^(.*):(\d+):([^:]+)$/.exec(owner);
  if (!match) return false;
  const [, host, pidText] = match;
  const [selfHost, selfPid] = self.split(":");
  if (host !== selfHost) return true;
  const pid = Number(pidText);
  if (String(pid) === selfPid) return false; // our pid, another instance: that process is gone
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // exists, but not ours to signal
  }
}

/** Discards imports left by dead owners. Called at start-up and before each upload; never throws. */
export async function discardOrphanedImportsNow(): Promise<number> {
  try {
    const removed = await discardOrphanedImports(getDb(), {
      isOwnerAlive: (owner) => isImportOwnerAlive(owner),
      staleAfterMs: HEARTBEAT_STALE_MS,
    });
    if (removed > 0) console.log(`[assay] discarded ${removed} upload(s) left unfinished by a server that is gone`);
    return removed;
  } catch (error) {
    logServerError("discarding unfinished uploads", error);
    return 0;
  }
}

/**
 * The sink for an upload this process streams: the import is claimed when it
 * begins, and a heartbeat is renewed while any of this process's uploads run.
 */
export function ownedSink(sink: DatasetSink): DatasetSink {
  return {
    ...sink,
    async begin(meta) {
      const datasetId = await sink.begin(meta);
      await claimImport(getDb(), datasetId, state.owner);
      return datasetId;
    },
  };
}

/** Wraps one upload: keeps the heartbeat timer running while it lasts. */
export async function withImportHeartbeat<T>(work: () => Promise<T>): Promise<T> {
  state.active += 1;
  if (!state.timer) {
    state.timer = setInterval(() => {
      renewImportHeartbeats(getDb(), state.owner).catch((error: unknown) =>
        logServerError("renewing upload heartbeats", error),
      );
    }, HEARTBEAT_INTERVAL_MS);
    state.timer.unref();
  }
  try {
    return await work();
  } finally {
    state.active -= 1;
    if (state.active === 0 && state.timer) {
      clearInterval(state.timer);
      state.timer = null;
    }
  }
}
