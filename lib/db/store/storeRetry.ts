import { wrapConnections } from "./wrapConnections";

/**
 * Writes that meet a busy or briefly full database wait asynchronously and try
 * again, instead of blocking the process or failing the run. better-sqlite3
 * waits for a lock synchronously (its busy timeout), which freezes the whole
 * event loop: with a 10 s busy timeout, another process holding the write lock
 * for 3 s froze every request of the web server for 3 s, and a 12 s lock failed
 * an 8,000-item run for good. So connections wait only BUSY_TIMEOUT_MS
 * synchronously, and this loop does the rest with backoff, handing the event
 * loop back between attempts.
 */

/** The synchronous wait per attempt: short enough that no request notices it. */
export const BUSY_TIMEOUT_MS = 20;

/** How long a write keeps retrying before the store counts as unavailable (a run then pauses). */
export const DEFAULT_STORE_RETRY_WINDOW_MS = 30_000;

/** The store stayed busy (or full) for the whole retry window: not the write's fault, and worth trying later. */
export class StoreUnavailableError extends Error {
  name = "StoreUnavailableError";
  constructor(
    readonly code: string,
    windowMs: number,
    options?: { cause?: unknown },
  ) {
    super(`the database stayed unavailable (${code}) for ${Math.round(windowMs / 1000)} s`, options);
  }
}

const TRANSIENT = /^SQLITE_(BUSY|LOCKED|FULL)/;
// A deferred transaction whose snapshot is stale cannot succeed by retrying the statement; its caller must start over.
const NOT_RETRYABLE_ALONE = /^SQLITE_BUSY_SNAPSHOT/;

/** The SQLite error code of a better-sqlite3 error, or of one the Prisma adapter wrapped. */
export function sqliteErrorCode(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const direct = (error as { code?: unknown }).code;
  if (typeof direct === "string" && direct.startsWith("SQLITE_")) return direct;
  const cause = (error as { cause?: { originalCode?: unknown } }).cause;
  if (cause && typeof cause.originalCode === "string") return cause.originalCode;
  return null;
}

/** A store-unavailable error, however Prisma wrapped it on the way up. */
export function isStoreUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current instanceof StoreUnavailableError || current.name === "StoreUnavailableError") return true;
    if (/the database stayed unavailable/.test(current.message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** True for an error that waiting can cure: the lock is held elsewhere, or the disk was full. */
export function isTransientStoreError(error: unknown): boolean {
  const code = sqliteErrorCode(error);
  return code !== null && TRANSIENT.test(code) && !NOT_RETRYABLE_ALONE.test(code);
}

/** The configured window (ASSAY_STORE_RETRY_MS), for the whole process. */
export function storeRetryWindowMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.ASSAY_STORE_RETRY_MS);
  return Number.isFinite(value) && value >= 0 ? value : DEFAULT_STORE_RETRY_WINDOW_MS;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `write` (synchronous or not) and, while it fails with a transient store
 * error, waits with backoff (25 ms doubling to 1 s) and tries again, up to the
 * window; then throws StoreUnavailableError. Any other error is thrown at once.
 * `write` must be all-or-nothing (one statement or one transaction), so trying
 * it again never applies it twice.
 */
export async function retryWhileBusy<T>(
  write: () => T | Promise<T>,
  windowMs: number = storeRetryWindowMs(),
): Promise<T> {
  const deadline = Date.now() + windowMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!isTransientStoreError(error)) throw error;
      const code = sqliteErrorCode(error) ?? "SQLITE_BUSY";
      if (Date.now() >= deadline) throw new StoreUnavailableError(code, windowMs, { cause: error });
      await sleep(Math.min(1000, 25 * 2 ** Math.min(attempt, 6), Math.max(1, deadline - Date.now())));
    }
  }
}

type Queryable = {
  queryRaw(query: unknown): Promise<unknown>;
  executeRaw(query: unknown): Promise<unknown>;
};

/**
 * Wraps a Prisma driver adapter factory so every statement Prisma sends goes
 * through retryWhileBusy: model calls in server actions, the run lease, run
 * events. A statement is atomic on its own, so trying it again is safe, inside
 * a transaction too (where only the statement, not the transaction, failed).
 */
export function retryBusyStatements<F extends { connect(): Promise<object> }>(factory: F): F {
  return wrapConnections(factory, retryingQueryable);
}

function retryingQueryable<T extends object>(queryable: T): T {
  return new Proxy(queryable, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property === "queryRaw" || property === "executeRaw") {
        return (query: unknown) => retryWhileBusy(() => (value as Queryable["queryRaw"]).call(target, query));
      }
      // BEGIN (deferred) takes no lock, so only the transaction's statements are retried.
      if (property === "startTransaction") {
        return async (...args: unknown[]) =>
          retryingQueryable(await (value as (...a: unknown[]) => Promise<object>).apply(target, args));
      }
      return value.bind(target);
    },
  });
}
