import { createHash } from "node:crypto";
import type { Db } from "@/lib/db/client";
import type { Limiter } from "@/lib/llm/concurrencyLimiter";
import { endpointIdentity, type LlmConfig } from "@/lib/llm/llmConfig";
import type { WorkerKind } from "@/lib/db/work/workers";
import { createStoreSlotLimiter } from "./storeSlotLimiter";
import { workerPresence } from "./workerPresence";

type Limiters = WeakMap<Db, Map<string, Limiter>>;
const limiters: Limiters = ((
  globalThis as unknown as { assaySharedEndpointLimiters?: Limiters }
).assaySharedEndpointLimiters ??= new WeakMap());

/**
 * The endpoint's in-flight limit (ASSAY_LLM_MAX_IN_FLIGHT) held across every
 * worker on the store, not per process: one limiter per endpoint and store in
 * this process, taking slots from the store (storeSlotLimiter.ts). Runs of
 * this process share it, as they shared the in-process limiter before.
 */
export function sharedEndpointLimiter(
  db: Db,
  config: Pick<LlmConfig, "endpoint" | "maxInFlight">,
  kind: WorkerKind,
): Limiter {
  let byEndpoint = limiters.get(db);
  if (!byEndpoint) limiters.set(db, (byEndpoint = new Map()));
  const endpoint = endpointKey(config);
  const key = `${endpoint} max ${config.maxInFlight}`;
  let limiter = byEndpoint.get(key);
  if (!limiter) {
    limiter = createStoreSlotLimiter({
      db,
      endpoint,
      holder: workerPresence(db, kind).then((presence) => presence.id),
      max: config.maxInFlight,
    });
    byEndpoint.set(key, limiter);
  }
  return limiter;
}

/** What names the endpoint in the store: a hash of its address, never the address (it may carry a key or a tenant). */
export function endpointKey(config: Pick<LlmConfig, "endpoint">): string {
  return createHash("sha256").update(endpointIdentity(config.endpoint)).digest("hex").slice(0, 24);
}
