/**
 * A FIFO semaphore. The LLM client holds a slot only while an HTTP request is
 * in flight, so one limiter shared by every judge of a run bounds the load on
 * the endpoint (and its rate limit) however many rows are evaluated at once.
 */
export type Release = () => void;

export interface Limiter {
  readonly max: number;
  /** Slots currently held. */
  readonly inFlight: number;
  /** Callers waiting for a slot. */
  readonly pending: number;
  /** Highest inFlight ever seen: lets tests prove the budget was used and never exceeded. */
  readonly maxObserved: number;
  /** Waits for a slot in arrival order. The release is idempotent. Rejects if the signal aborts while waiting. */
  acquire(signal?: AbortSignal): Promise<Release>;
  /** Runs fn while holding a slot; releases it however fn ends. */
  run<T>(fn: () => Promise<T> | T, signal?: AbortSignal): Promise<T>;
}

type Waiter = {
  grant: (release: Release) => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
};

export function createLimiter(max: number): Limiter {
  if (!Number.isInteger(max) || max < 1) throw new Error(`concurrency limit must be a positive integer, got ${max}`);
  let inFlight = 0;
  let maxObserved = 0;
  const queue: Waiter[] = [];

  function makeRelease(): Release {
    let released = false;
    return () => {
      // A double release would let one extra request through forever.
      if (released) return;
      released = true;
      const next = queue.shift();
      if (next) {
        // Hand the slot straight over: inFlight stays the same, and no
        // newcomer can overtake the queue between release and grant.
        if (next.signal && next.onAbort) next.signal.removeEventListener("abort", next.onAbort);
        next.grant(makeRelease());
      } else {
        inFlight -= 1;
      }
    };
  }

  function acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (inFlight < max && queue.length === 0) {
      inFlight += 1;
      maxObserved = Math.max(maxObserved, inFlight);
      return Promise.resolve(makeRelease());
    }
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = { grant: resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const index = queue.indexOf(waiter);
          if (index >= 0) queue.splice(index, 1);
          reject(abortReason(signal));
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      queue.push(waiter);
    });
  }

  async function run<T>(fn: () => Promise<T> | T, signal?: AbortSignal): Promise<T> {
    const release = await acquire(signal);
    try {
      return await fn();
    } finally {
      release();
    }
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
    run,
  };
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}
