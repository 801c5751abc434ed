import fs from "node:fs";
import path from "node:path";

/** The embedded default: one SQLite file under ./data, relative to the project root. */
export const DEFAULT_DATABASE_URL = "file:./data/assay.db";

export function resolveDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const url = env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
  if (!url.startsWith("file:")) {
    throw new Error(`DATABASE_URL must be a SQLite file: URL (got a "${url.split(":")[0]}:" URL)`);
  }
  return url;
}

/** Absolute filesystem path of a file: URL; relative paths resolve against the current directory, as Prisma does. */
export function sqliteFilePath(url: string): string {
  const raw = url.slice("file:".length).split("?")[0];
  return path.resolve(raw);
}

/** Creates the folder that will hold the database file, so a fresh clone needs no set-up. */
export function ensureDatabaseDirectory(url: string): void {
  fs.mkdirSync(path.dirname(sqliteFilePath(url)), { recursive: true });
}
