import { wrapConnections } from "./wrapConnections";

/**
 * Every query binds a small, fixed number of values. A query whose values
 * grow with the data (`where: { id: { in: ids } }`, a nested relation load on a
 * findMany, a raw `IN (?, ?, …)` list) works on a small dataset and then fails
 * on a large one: Prisma's SQLite limit is 999 bound values, so an export of a
 * 200-row run × 11 judges stopped with "The query parameter limit supported by
 * your database is exceeded". Queries here are keyed by ranges and joins
 * instead, and this guard makes a list sized by the data fail on the first
 * query that carries more than MAX_BOUND_PARAMETERS values, whatever the
 * dataset's size in the test that runs it, not on a customer's 20,000-row run.
 *
 * The cap is far above any fixed-shape query here (the widest are the bulk
 * inserts, one value per column) and below the smallest data-sized list a
 * repository test on a few hundred rows produces.
 */
export const MAX_BOUND_PARAMETERS = 64;

export class BoundParameterLimitError extends Error {
  name = "BoundParameterLimitError";
}

export function assertBoundParameterCount(count: number, sql: string): void {
  if (count <= MAX_BOUND_PARAMETERS) return;
  throw new BoundParameterLimitError(
    `a query binds ${count} values (at most ${MAX_BOUND_PARAMETERS}): a list sized by the data reached the database; key the query by a range or a join instead. Query: ${sql.replace(/\s+/g, " ").slice(0, 300)}`,
  );
}

/** Counts the `?` placeholders of SQL written in lib/db (its string literals never contain one). */
export function placeholderCount(sql: string): number {
  let count = 0;
  for (const char of sql) if (char === "?") count += 1;
  return count;
}

type Queryable = {
  queryRaw(query: { sql: string; args: unknown[] }): Promise<unknown>;
  executeRaw(query: { sql: string; args: unknown[] }): Promise<unknown>;
};

/**
 * Wraps a Prisma driver adapter factory so every query Prisma sends (model
 * calls, their nested relation loads, $queryRaw) is checked before it runs,
 * in transactions too.
 */
export function guardBoundParameters<F extends { connect(): Promise<object> }>(factory: F): F {
  return wrapConnections(factory, guardQueryable, ["connect", "connectToShadowDb"]);
}

function guardQueryable<T extends object>(queryable: T): T {
  return new Proxy(queryable, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property === "queryRaw" || property === "executeRaw") {
        return (query: Parameters<Queryable["queryRaw"]>[0]) => {
          assertBoundParameterCount(query.args.length, query.sql);
          return (value as Queryable["queryRaw"]).call(target, query);
        };
      }
      if (property === "startTransaction") {
        return async (...args: unknown[]) =>
          guardQueryable(await (value as (...a: unknown[]) => Promise<object>).apply(target, args));
      }
      return value.bind(target);
    },
  });
}
