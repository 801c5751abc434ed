/**
 * The database keeps an active admin (role admin, not banned): triggers on the
 * User table (migration account_safeguards) abort any update or delete that
 * would leave none, inside that write, so every path (Better Auth's admin API,
 * Assay's actions, a script) and any two concurrent changes are covered. The
 * abort's message starts with this marker.
 */
export const LAST_ACTIVE_ADMIN_MARKER = "ASSAY_LAST_ACTIVE_ADMIN";

/**
 * Whether an error is that trigger refusing a change. Prisma reports it as a
 * foreign-key violation (P2003) and keeps SQLite's own message only in
 * `meta.driverAdapterError.cause.originalMessage` (raw queries: in the message).
 */
export function isLastActiveAdminRefusal(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const { message, meta } = error as { message?: unknown; meta?: { driverAdapterError?: { cause?: unknown } } };
  const cause = meta?.driverAdapterError?.cause as { originalMessage?: unknown } | undefined;
  return [message, cause?.originalMessage].some(
    (text) => typeof text === "string" && text.includes(LAST_ACTIVE_ADMIN_MARKER),
  );
}
