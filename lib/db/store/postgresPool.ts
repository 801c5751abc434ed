import pg from "pg";

/** Connections per process (ASSAY_DB_POOL, default 10): shared by Prisma and the raw-SQL runner. */
export function postgresPoolSize(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.ASSAY_DB_POOL);
  return Number.isInteger(value) && value > 0 ? value : 10;
}

export function createPostgresPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: postgresPoolSize(), idleTimeoutMillis: 30_000 });
  // An idle connection the server drops (restart, network) must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  return pool;
}
