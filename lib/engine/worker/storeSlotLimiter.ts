import type { Db } from "@/lib/db/client";
import { ensureSlots, heldSlots, releaseSlots, takeSlots } from "@/lib/db/work/inFlightSlots";
import type { Limiter, Release } from "@/lib/llm/concurrencyLimiter";

type Waiter = {
  grant: (slot: number) => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
};

/** How long a process whose callers wait for a slot held by another process lets pass before asking the store again. */
const POLL_MS = 20;
/** How often, at most, a process handing slots on checks with the store that they are still its own. */
const HELD_CHECK_MS = 1_000;
/**
 * How long the store's word that our slots are ours lasts: a freed slot is handed on without a query only
 * this soon after the start of the last check that answered, else once a check says it is still ours. Twice
 * the check's period, so a steady stream of hand-overs never waits for one.
 */
const CONFIRMED_FOR_MS = 2 * HELD_CHECK_MS;

/**
 * The endpoint's in-flight limit shared through the store by every worker
 * (inFlightSlots.ts): a call runs while its process holds one of the
 * endpoint's slot rows. The cost is kept off the busy path: a slot freed
 * while callers of this process wait goes straight to the next one (no
 * query), slots are taken from the store for all waiters at once and given
 * back in one statement per tick, and one loop per process asks the store
 * for free slots while the limit is reached elsewhere. FIFO within the
 * process, as the in-process limiter. A slot is the holder's only while it
 * heartbeats (inFlightSlots.ts): a process that was silent past the slot
 * timeout may find, at its next check, that the store gave some of its slots
 * to others, and then no longer hands those on; and a freed slot is handed on
 * without a query only within CONFIRMED_FOR_MS of the store's last word that
 * our slots are ours, so after a silence none is handed on unasked. Nor does it hand on a slot
 * whose release the store refused (unavailable): the store may have given it
 * to another worker meanwhile, so it is only given back, retried until it is.
 */
export function createStoreSlotLimiter(options: {
  db: Db;
  endpoint: string;
  /** The worker holding the slots; a promise, since the worker's row may still be being written. */
  holder: Promise<string>;
  max: number;
}): Limiter {
  const { db, endpoint, max } = options;
  let holder = "";
  if (!Number.isInteger(max) || max < 1) throw new Error(`concurrency limit must be a positive integer, got ${max}`);
  const queue: Waiter[] = [];
  let inFlight = 0;
  let maxObserved = 0;
  let ready: Promise<void> | null = null;
  let pumping = false;
  let retryTimer: NodeJS.Timeout | null = null;
  const toRelease: number[] = [];
  let flushScheduled = false;
  /**
   * Slots only to be given back, never handed on: lost ones, and ours whose release failed (the store may have
   * given them to another worker since). Their release and taking slots from the store are never in flight at
   * once, so a stale release cannot free a slot the store has just given back to us.
   */
  const releaseOnly = new Set<number>();
  let givingBack = false;
  let slotQueries: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(query: () => Promise<T>): Promise<T> => {
    const result = slotQueries.then(query);
    slotQueries = result.catch(() => {});
    return result;
  };
  /** Slots granted to this process's callers now, and those of them the store no longer says are ours. */
  const granted = new Set<number>();
  const lost = new Set<number>();
  let lastHeldCheck = Number.NEGATIVE_INFINITY;
  let checkingHeld = false;
  /** When the last check that answered started, and the freed slots waiting for a check before being handed on. */
  let confirmedAt = Number.NEGATIVE_INFINITY;
  const unconfirmed: number[] = [];
  const confirmed = () => performance.now() - confirmedAt < CONFIRMED_FOR_MS;

  /**
   * Asks the store which slots are ours: the granted ones it no longer says are become lost, and the freed
   * ones waiting for its word are handed on (or given back) if ours, given back if not or if it did not answer.
   */
  const askStore = () => {
    if (checkingHeld) return;
    checkingHeld = true;
    const startedAt = performance.now();
    lastHeldCheck = startedAt;
    const asked = [...granted];
    void heldSlots(db, endpoint, holder)
      .then((held) => {
        const ours = new Set(held);
        for (const slot of asked) if (granted.has(slot) && !ours.has(slot)) lost.add(slot);
        confirmedAt = Math.max(confirmedAt, startedAt);
        for (const slot of unconfirmed.splice(0)) {
          if (!ours.has(slot)) giveBack([slot]);
          else {
            const next = queue.shift();
            if (next) grant(next, slot);
            else queueRelease(slot);
          }
        }
      })
      .catch(() => giveBack(unconfirmed.splice(0)))
      .finally(() => {
        checkingHeld = false;
        if (unconfirmed.length > 0) askStore();
        void pump();
      });
  };
  /** Asks the store at most once a second, off the caller's path, while slots are handed on. */
  const checkHeld = () => {
    if (performance.now() - lastHeldCheck >= HELD_CHECK_MS) askStore();
  };

  const grant = (waiter: Waiter, slot: number) => {
    if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener("abort", waiter.onAbort);
    inFlight += 1;
    maxObserved = Math.max(maxObserved, inFlight);
    granted.add(slot);
    waiter.grant(slot);
  };

  /** Gives slots back until the store takes them: never forgotten, which would shrink every worker's limit for good. */
  const giveBack = (slots: number[]) => {
    for (const slot of slots) releaseOnly.add(slot);
    if (givingBack) return;
    givingBack = true;
    void (async () => {
      while (releaseOnly.size > 0) {
        try {
          await oneAtATime(async () => {
            const asked = [...releaseOnly];
            await releaseSlots(db, endpoint, holder, asked);
            for (const slot of asked) releaseOnly.delete(slot);
          });
        } catch {
          // The store is unavailable: asked again shortly.
          await new Promise((resolve) => setTimeout(resolve, POLL_MS * 5).unref());
        }
      }
    })().finally(() => {
      givingBack = false;
      void pump();
    });
  };

  const flushReleases = () => {
    flushScheduled = false;
    const slots = toRelease.splice(0);
    if (slots.length > 0)
      void releaseSlots(db, endpoint, holder, slots)
        // The store was unavailable: the slots may still be ours in it, or given to another worker if it stayed
        // so past the slot timeout, so they are given back, never handed to our next caller.
        .catch(() => giveBack(slots))
        .finally(() => void pump());
  };

  const releaseSlot = (slot: number) => {
    inFlight -= 1;
    granted.delete(slot);
    if (lost.delete(slot)) {
      // The store gave it to another worker while this one was silent: not handed on. Given back all the same
      // (a no-op unless the check misread a slot just taken), and the waiters ask the store for others.
      giveBack([slot]);
      return;
    }
    if (queue.length === 0) return queueRelease(slot);
    if (!confirmed()) {
      // Not handed on before the store says it is still ours: this process may have been silent (a stall of its
      // own or of the store) past the slot timeout, and the slot given to another worker meanwhile.
      unconfirmed.push(slot);
      askStore();
      return;
    }
    checkHeld();
    grant(queue.shift() as Waiter, slot); // handed over: the slot stays ours, no query
  };

  function queueRelease(slot: number) {
    toRelease.push(slot);
    if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(flushReleases);
    }
  }

  async function pump(): Promise<void> {
    if (pumping || queue.length === 0) return;
    pumping = true;
    try {
      ready ??= (async () => {
        holder = await options.holder;
        await ensureSlots(db, endpoint, max);
      })().catch((error: unknown) => {
        ready = null;
        throw error;
      });
      await ready;
      while (queue.length > 0) {
        // Our own just-freed slots first: they are not back in the store yet.
        while (queue.length > 0 && toRelease.length > 0 && confirmed())
          grant(queue.shift() as Waiter, toRelease.shift() as number);
        // Every slot is granted here: none can be free in the store (see the retry below).
        if (queue.length === 0 || granted.size >= max) break;
        const slots = await oneAtATime(async () => {
          const taken = await takeSlots(db, endpoint, holder, max, queue.length);
          for (const slot of taken) releaseOnly.delete(slot); // free in the store, so ours again: not given back
          return taken;
        });
        for (const slot of slots) {
          const waiter = queue.shift();
          if (waiter) grant(waiter, slot);
          else toRelease.push(slot);
        }
        if (slots.length === 0) break;
      }
    } catch {
      // The store is briefly unavailable: the waiters keep waiting and the loop asks again.
    } finally {
      pumping = false;
      if (toRelease.length > 0 && !flushScheduled) {
        flushScheduled = true;
        setImmediate(flushReleases);
      }
      // Asked again later only while another process may hold a slot. When this one holds them all, no slot can
      // come free in the store: the next to come free is one of ours, handed on as it is released. A process
      // judging alone thus waits on its calls, not on a timer (50 queries a second while every call was out).
      if (queue.length > 0 && !retryTimer && granted.size < max) {
        retryTimer = setTimeout(() => {
          retryTimer = null;
          void pump();
        }, POLL_MS);
      }
    }
  }

  function acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted)
      return Promise.reject(signal.reason ?? new DOMException("The operation was aborted.", "AbortError"));
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        grant: (slot) => {
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            releaseSlot(slot);
          });
        },
        reject,
        signal,
      };
      if (signal) {
        waiter.onAbort = () => {
          const index = queue.indexOf(waiter);
          if (index >= 0) queue.splice(index, 1);
          reject(signal.reason ?? new DOMException("The operation was aborted.", "AbortError"));
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      queue.push(waiter);
      void pump();
    });
  }

  return {
    max,
    get inFlight() {
      return inFlight;
    },
    get pending() {
      return queue.length;
    },
    get maxObserved() {
      return maxObserved;
    },
    acquire,
    async run<T>(fn: () => Promise<T> | T, signal?: AbortSignal): Promise<T> {
      const release = await acquire(signal);
      try {
        return await fn();
      } finally {
        release();
      }
    },
  };
}
