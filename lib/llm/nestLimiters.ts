import type { Limiter, Release } from "./concurrencyLimiter";

/**
 * A run's limiter inside the endpoint's: a call holds a run slot, then an
 * endpoint slot, in that order, so a run waiting on its own limit never sits
 * on an endpoint slot another run could use. inFlight and maxObserved count
 * calls holding both (what reaches the server from this run).
 */
export function nestLimiters(run: Limiter, endpoint: Limiter): Limiter {
  let inFlight = 0;
  let maxObserved = 0;

  async function acquire(signal?: AbortSignal): Promise<Release> {
    const releaseRun = await run.acquire(signal);
    let releaseEndpoint: Release;
    try {
      releaseEndpoint = await endpoint.acquire(signal);
    } catch (error) {
      releaseRun();
      throw error;
    }
    inFlight += 1;
    maxObserved = Math.max(maxObserved, inFlight);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      inFlight -= 1;
      releaseEndpoint();
      releaseRun();
    };
  }

  return {
    max: Math.min(run.max, endpoint.max),
    get inFlight() {
      return inFlight;
    },
    get pending() {
      return run.pending + endpoint.pending;
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
