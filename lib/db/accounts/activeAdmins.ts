/**
 * The database keeps an active admin (role admin, not banned): triggers on the
 * User table (migration account_safeguards, in each store's history) abort any
 * update or delete that would leave none, inside that write, so every path
 * (Better Auth's admin API, Assay's actions, a script) and any two concurrent
 * changes are covered. The abort's message starts with this marker.
 */
export const LAST_ACTIVE_ADMIN_MARKER = "ASSAY_LAST_ACTIVE_ADMIN";

/**
 * The codes each store gives that abort: SQLite's RAISE(ABORT, …) in a
 * trigger, PostgreSQL's RAISE EXCEPTION in plpgsql (SQLSTATE P0001).
 */
const TRIGGER_ABORT_CODES = new Set(["SQLITE_CONSTRAINT_TRIGGER", "P0001"]);

/**
 * Whether an error is that trigger refusing a change, on either store. Prisma
 * reports it under a code of its own (P2003 on SQLite, P2039 or P2010 on
 * PostgreSQL) and keeps the store's code and message in
 * `meta.driverAdapterError.cause` (originalCode, originalMessage); the
 * store's driver itself (raw SQL through lib/db's runner) throws them as
 * `code` and `message`. Only an abort whose message starts with the marker
 * counts: a text that merely quotes it is not the refusal.
 */
export function isLastActiveAdminRefusal(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const { code, message, meta } = error as {
    code?: unknown;
    message?: unknown;
    meta?: { driverAdapterError?: { cause?: unknown } };
  };
  const cause = meta?.driverAdapterError?.cause as { originalCode?: unknown; originalMessage?: unknown } | undefined;
  return isMarkedAbort(cause?.originalCode, cause?.originalMessage) || isMarkedAbort(code, message);
}

function isMarkedAbort(code: unknown, message: unknown): boolean {
  return (
    typeof code === "string" &&
    TRIGGER_ABORT_CODES.has(code) &&
    typeof message === "string" &&
    message.startsWith(LAST_ACTIVE_ADMIN_MARKER)
  );
}
