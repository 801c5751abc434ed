import type { Db } from "@/lib/db/client";
import { ensureSlots, heldSlots, releaseSlots, takeSlots } from "@/lib/db/work/inFlightSlots";
import type { Limiter, Release } from "@/lib/llm/concurrencyLimiter";

type Waiter = {
  grant: (slot: number) => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
};

/** How long a process whose callers wait for a slot lets pass before asking the store again. */
const POLL_MS = 20;
/** How often, at most, a process handing slots on checks with the store that they are still its own. */
const HELD_CHECK_MS = 1_000;

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
 * to others, and then no longer hands those on.
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
  /** Slots granted to this process's callers now, and those of them the store no longer says are ours. */
  const granted = new Set<number>();
  const lost = new Set<number>();
  let lastHeldCheck = Number.NEGATIVE_INFINITY;
  let checkingHeld = false;

  /** Asks the store, at most once a second and off the caller's path, which of the granted slots are still ours. */
  const checkHeld = () => {
    if (checkingHeld || performance.now() - lastHeldCheck < HELD_CHECK_MS) return;
    checkingHeld = true;
    lastHeldCheck = performance.now();
    const asked = [...granted];
    void heldSlots(db, endpoint, holder)
      .then((held) => {
        const ours = new Set(held);
        for (const slot of asked) if (granted.has(slot) && !ours.has(slot)) lost.add(slot);
      })
      .catch(() => {})
      .finally(() => (checkingHeld = false));
  };

  const grant = (waiter: Waiter, slot: number) => {
    if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener("abort", waiter.onAbort);
    inFlight += 1;
    maxObserved = Math.max(maxObserved, inFlight);
    granted.add(slot);
    waiter.grant(slot);
  };

  const flushReleases = () => {
    flushScheduled = false;
    const slots = toRelease.splice(0);
    if (slots.length > 0)
      void releaseSlots(db, endpoint, holder, slots)
        .catch(() => {
          // The store was unavailable: the slots are still ours in it, so they are given back on a later tick
          // (or handed to our next caller), never forgotten, which would shrink every worker's limit for good.
          toRelease.push(...slots);
          if (!flushScheduled) {
            flushScheduled = true;
            setTimeout(flushReleases, POLL_MS * 5);
          }
        })
        .finally(() => void pump());
  };

  const releaseSlot = (slot: number) => {
    inFlight -= 1;
    granted.delete(slot);
    if (lost.delete(slot)) {
      // The store gave it to another worker while this one was silent: not handed on. Given back all the same
      // (a no-op unless the check misread a slot just taken), and the waiters ask the store for others.
      void releaseSlots(db, endpoint, holder, [slot])
        .catch(() => toRelease.push(slot))
        .finally(() => void pump());
      return;
    }
    const next = queue.shift();
    if (next) {
      checkHeld();
      return grant(next, slot); // handed over: the slot stays ours, no query
    }
    toRelease.push(slot);
    if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(flushReleases);
    }
  };

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
        while (queue.length > 0 && toRelease.length > 0) grant(queue.shift() as Waiter, toRelease.shift() as number);
        if (queue.length === 0) break;
        const slots = await takeSlots(db, endpoint, holder, max, queue.length);
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
      if (queue.length > 0 && !retryTimer) {
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
