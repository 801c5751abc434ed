import { createLimiter, type Limiter, type Release } from "./concurrencyLimiter";
import { endpointIdentity, type LlmConfig } from "./llmConfig";

/**
 * One limiter per endpoint for the whole process, shared by every run: each
 * run had its own, so N runs at concurrency C held N × C calls in flight at
 * one endpoint (and its rate limit and the team's key). Kept on globalThis
 * because Next bundles this module more than once.
 */
const limiters: Map<string, Limiter> = ((
  globalThis as unknown as { assayEndpointLimiters?: Map<string, Limiter> }
).assayEndpointLimiters ??= new Map());

/** The process-wide limiter of the config's endpoint, at the config's global limit (ASSAY_LLM_MAX_IN_FLIGHT). */
export function endpointLimiter(config: Pick<LlmConfig, "endpoint" | "maxInFlight">): Limiter {
  const key = `${endpointIdentity(config.endpoint)} max ${config.maxInFlight}`;
  let limiter = limiters.get(key);
  if (!limiter) limiters.set(key, (limiter = createLimiter(config.maxInFlight)));
  return limiter;
}

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
