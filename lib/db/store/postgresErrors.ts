import { StoreUnavailableError, storeRetryWindowMs } from "./storeRetry";

/**
 * PostgreSQL errors that waiting cures, by SQLSTATE: a serialization failure
 * or deadlock (the transaction is rolled back whole, so trying it again is
 * safe), too many connections, a server starting up. A connection lost in
 * the middle of a statement is not here: whether it committed is unknown, so
 * it is reported, and a run pauses as with a store that stayed busy.
 */
const TRANSIENT = new Set(["40001", "40P01", "53300", "57P03", "08001", "08004"]);
const TRANSIENT_NODE = new Set(["ECONNREFUSED", "EAI_AGAIN"]);
const UNAVAILABLE = new Set(["57P01", "57P02", "08000", "08003", "08006", "ECONNRESET", "EPIPE", "ETIMEDOUT"]);

export function postgresErrorCode(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : null;
}

export function isTransientPostgresError(error: unknown): boolean {
  const code = postgresErrorCode(error);
  return code !== null && (TRANSIENT.has(code) || TRANSIENT_NODE.has(code));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `work` again while it fails with a transient error, with backoff, up to the store retry window. */
export async function retryTransientPostgres<T>(work: () => Promise<T>, windowMs = storeRetryWindowMs()): Promise<T> {
  const deadline = Date.now() + windowMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const code = postgresErrorCode(error);
      if (code && UNAVAILABLE.has(code)) throw new StoreUnavailableError(code, 0, { cause: error });
      if (!isTransientPostgresError(error)) throw error;
      if (Date.now() >= deadline) throw new StoreUnavailableError(code ?? "unknown", windowMs, { cause: error });
      // Serialization failures clear at once; a refused connection needs longer.
      const base = code === "40001" || code === "40P01" ? 5 : 50;
      await sleep(
        Math.min(1000, base * 2 ** Math.min(attempt, 6) * (0.5 + Math.random()), Math.max(1, deadline - Date.now())),
      );
    }
  }
}
