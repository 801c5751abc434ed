/**
 * Whether an error is a unique constraint refusing a second row with the same key, on either store:
 * Prisma's own code (P2002), or the store's code it keeps in `meta.driverAdapterError.cause`
 * (SQLite's SQLITE_CONSTRAINT_UNIQUE, PostgreSQL's SQLSTATE 23505).
 */
const UNIQUE_CODES = new Set(["P2002", "SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY", "23505"]);

export function isUniqueViolation(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const { code, meta } = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: unknown } } };
  const cause = meta?.driverAdapterError?.cause as { originalCode?: unknown; kind?: unknown } | undefined;
  return (
    (typeof code === "string" && UNIQUE_CODES.has(code)) ||
    (typeof cause?.originalCode === "string" && UNIQUE_CODES.has(cause.originalCode)) ||
    cause?.kind === "UniqueConstraintViolation"
  );
}
