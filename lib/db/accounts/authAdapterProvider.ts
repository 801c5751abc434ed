import { sqlOf, type Db } from "../client";

/**
 * The provider Better Auth's Prisma adapter is told about for this client's
 * store: "sqlite" or "postgresql", the names both Better Auth and lib/db use.
 * The adapter shapes some queries by it (case-insensitive filters and list
 * fields exist only on PostgreSQL), so lib/auth asks here instead of knowing
 * the store.
 */
export function authAdapterProvider(db: Db): "sqlite" | "postgresql" {
  return sqlOf(db).dialect;
}
