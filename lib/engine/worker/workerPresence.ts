import { randomUUID } from "node:crypto";
import os from "node:os";
import { onStoreClose, type Db } from "@/lib/db/client";
import { foldKeptTallies } from "@/lib/db/judgments/keptTallyFold";
import { reclaimFromGoneWorkers } from "@/lib/db/work/claims";
import { releaseAllSlots, releaseSlotsOfSilentHolders } from "@/lib/db/work/inFlightSlots";
import {
  deleteOldWorkers,
  heartbeatWorker,
  markWorkerStopped,
  registerWorker,
  type WorkerKind,
} from "@/lib/db/work/workers";
import { slotTimeoutMs, workerTimeoutMs } from "./workerSettings";

const HEARTBEAT_MS = 1_000;
const RECLAIM_EVERY_BEATS = 5;

/** The version a worker reports: the package's, so a fleet mid-upgrade shows who runs what. */
const VERSION = process.env.npm_package_version ?? "0.1.0";

/**
 * This process as a worker in the store: a Worker row it heartbeats every
 * second (what it judges, calls in flight, results written), the fold of the
 * kept tallies' deltas (every beat while it judges, every few beats
 * otherwise), the return of the in-flight slots of workers silent past the
 * slot timeout (every beat), and every few beats the sweep that returns to the
 * pool what gone workers held. Every process that judges has one (the web server, `npm run
 * worker`, a CLI run), so the sweep runs as long as any of them lives.
 */
export type WorkerPresence = {
  readonly id: string;
  readonly kind: WorkerKind;
  /**
   * Tells the heartbeat the worker works on a run, with its calls in flight;
   * the returned function says it stopped. A process may work on several runs
   * at once: the heartbeat reports the oldest one and every run's calls.
   */
  beginActivity(runId: string, inFlight: () => number): () => void;
  /** Counts a written result. */
  countCompleted(): void;
  /** Stops heartbeating and frees what it holds (claims are released by the engine as it stops). */
  stop(): Promise<void>;
};

type Presences = { byDb: WeakMap<Db, Promise<WorkerPresence>>; all: Set<Promise<WorkerPresence>> };
const presences: Presences = ((globalThis as unknown as { assayWorkerPresences?: Presences }).assayWorkerPresences ??= {
  byDb: new WeakMap(),
  all: new Set(),
});

/** The process's presence on a store (one per client), started on first use; `kind` is what the first user says it is. */
export function workerPresence(db: Db, kind: WorkerKind = "web"): Promise<WorkerPresence> {
  let presence = presences.byDb.get(db);
  if (!presence) {
    presence = startPresence(db, kind);
    const started = presence;
    presences.byDb.set(db, started);
    presences.all.add(started);
    started.catch(() => {
      presences.byDb.delete(db);
      presences.all.delete(started);
    });
    // Closing the client (a test's clean-up, a CLI's exit) stops the presence with it.
    onStoreClose(db, async () => {
      presences.byDb.delete(db);
      presences.all.delete(started);
      await (await started).stop();
    });
  }
  return presence;
}

/** Stops every presence of this process (a clean shutdown). */
export async function stopWorkerPresences(): Promise<void> {
  const all = [...presences.all];
  presences.all.clear();
  await Promise.allSettled(all.map(async (presence) => (await presence).stop()));
}

/**
 * Whether this worker's heartbeat may free the slots of workers silent past the slot timeout. Not for half
 * the slot timeout after a heartbeat that came more than half of it after the previous one: this worker was
 * silent too, most likely because the whole store stalled (an SQLite write lock, a PostgreSQL lock), and then
 * every live worker looks silent until its own next heartbeat; freeing their slots while they hand them on
 * would let the calls in flight exceed the limit. Half the slot timeout is at least 1.5 s, more than a
 * heartbeat. `now` is this process's monotonic clock (a test's own).
 */
export function slotSweepGate(
  slotSilenceMs: number,
  now: () => number = () => performance.now(),
): { readonly gapMs: number; beatStored(): boolean } {
  const gapMs = slotSilenceMs / 2;
  let lastBeat = now();
  let sweepFrom = Number.NEGATIVE_INFINITY;
  return {
    gapMs,
    /** This worker's heartbeat was just stored: whether this beat may sweep. */
    beatStored() {
      const at = now();
      if (at - lastBeat > gapMs) sweepFrom = at + gapMs;
      lastBeat = at;
      return at >= sweepFrom;
    },
  };
}

async function startPresence(db: Db, kind: WorkerKind): Promise<WorkerPresence> {
  const id = `${kind}-${os.hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const timeoutMs = workerTimeoutMs();
  const slotSilenceMs = slotTimeoutMs();
  await registerWorker(db, { id, kind, host: os.hostname(), pid: process.pid, version: VERSION });
  const activities = new Set<{ runId: string; inFlight: () => number }>();
  let completed = 0;
  let beats = 0;
  let stopped = false;
  let beating: Promise<void> = Promise.resolve();
  const sweepGate = slotSweepGate(slotSilenceMs);
  const beat = async () => {
    if (stopped) return;
    try {
      const [oldest] = activities;
      const inFlight = [...activities].reduce((sum, activity) => sum + activity.inFlight(), 0);
      const alive = await heartbeatWorker(db, id, { runId: oldest?.runId ?? null, inFlight, completed });
      const maySweep = sweepGate.beatStored();
      // A worker others thought gone (a long pause) registers again; its claims were returned and its writes refused.
      if (!alive && !stopped)
        await registerWorker(db, { id, kind, host: os.hostname(), pid: process.pid, version: VERSION });
      // What this process wrote since the last beat, and what others wrote, in a few rows again.
      if (activities.size > 0 || beats % RECLAIM_EVERY_BEATS === 0) await foldKeptTallies(db);
      // Every beat, not every few: a killed worker's slots throttle every worker until they are back. Not right
      // after this worker was itself silent (slotSweepGate), and not if it is again when the statement runs.
      if (maySweep && alive)
        await releaseSlotsOfSilentHolders(db, slotSilenceMs, { id, freshWithinMs: sweepGate.gapMs });
      if (++beats % RECLAIM_EVERY_BEATS === 0) {
        await reclaimFromGoneWorkers(db, timeoutMs);
        if (beats % (RECLAIM_EVERY_BEATS * 60) === 0) await deleteOldWorkers(db);
      }
    } catch {
      // The store is briefly unavailable: the next beat tries again.
    }
  };
  const timer = setInterval(() => {
    beating = beating.then(beat);
  }, HEARTBEAT_MS);
  timer.unref();
  // The first sweep at once: a worker starting after a crash returns the dead one's claims without waiting.
  await reclaimFromGoneWorkers(db, timeoutMs).catch(() => {});
  return {
    id,
    kind,
    beginActivity(runId, inFlight) {
      const activity = { runId, inFlight };
      activities.add(activity);
      return () => activities.delete(activity);
    },
    countCompleted() {
      completed += 1;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await beating;
      await releaseAllSlots(db, id).catch(() => {});
      await markWorkerStopped(db, id).catch(() => {});
    },
  };
}
