/**
 * The two stores Assay runs on. Only lib/db/store (the runners, the SQL
 * fragments, the error classes), lib/db/client.ts and lib/db/migrations ever
 * switch on it; a repository asks a fragment for the few words that differ.
 */
export type Dialect = "sqlite" | "postgresql";

/** The store a DATABASE_URL names: `file:` is SQLite, `postgres://` or `postgresql://` is PostgreSQL. */
export function dialectOfUrl(url: string): Dialect {
  if (url.startsWith("file:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(url)) return "postgresql";
  throw new Error(`DATABASE_URL must be a SQLite file: URL or a postgresql:// URL (got a "${url.split(":")[0]}:" URL)`);
}

/** One value per dialect; a Record over the union, so adding a dialect fails to compile until every choice names it. */
export function byDialect<T>(dialect: Dialect, choices: Record<Dialect, T>): T {
  return choices[dialect];
}
