import fs from "node:fs";
import path from "node:path";
import { dialectOfUrl } from "./store/dialect";

/** The embedded default: one SQLite file under ./data, relative to the project root. */
export const DEFAULT_DATABASE_URL = "file:./data/assay.db";

/** DATABASE_URL, or the embedded default; a `file:` URL is SQLite, a `postgresql://` URL the team store. */
export function resolveDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const url = env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
  dialectOfUrl(url);
  return url;
}

/** A URL safe to print: a PostgreSQL URL without its password. */
export function describeDatabaseUrl(url: string): string {
  if (dialectOfUrl(url) === "sqlite") return url;
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "postgresql://…";
  }
}

/** Absolute filesystem path of a file: URL; relative paths resolve against the current directory, as Prisma does. */
export function sqliteFilePath(url: string): string {
  const raw = url.slice("file:".length).split("?")[0];
  return path.resolve(raw);
}

/**
 * Creates the database's folder and file, for this user's eyes only: the file
 * holds password hashes, session and OpenID tokens. A folder Assay creates is
 * 0700 (one the user chose and that exists already is left as it is); the
 * file is created 0600 before SQLite opens it (SQLite gives its -wal and -shm
 * files the database file's mode), and an existing file, -wal or -shm is
 * tightened to 0600.
 */
export function prepareDatabaseFile(url: string): void {
  const file = sqliteFilePath(url);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.closeSync(fs.openSync(file, "a", 0o600));
  for (const name of [file, `${file}-wal`, `${file}-shm`]) tightenToOwner(name);
}

function tightenToOwner(file: string): void {
  try {
    if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  } catch (error) {
    // Missing (-wal and -shm come and go) is fine; another owner's file is theirs to protect.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "EPERM") throw error;
  }
}
