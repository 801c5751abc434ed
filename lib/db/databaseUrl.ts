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

/**
 * Query parameters whose value is a secret. node-postgres (pg-connection-string) copies every query parameter
 * into the connection's settings, so `?password=…` logs in as surely as `user:…@`; libpq also reads
 * `sslpassword` (the client key's passphrase) and, from PostgreSQL 18, `oauth_client_secret`. Matched in any
 * case, and any name that says password, secret or token, so a near-miss is hidden too. Paths (`sslkey`,
 * `passfile`) are not secrets and stay readable.
 */
const SECRET_PARAMETER = /password|secret|token/i;

/** A URL safe to print: a PostgreSQL URL with its password, in the user part or the query, as `***`. */
export function describeDatabaseUrl(url: string): string {
  if (dialectOfUrl(url) === "sqlite") return url;
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    // Each pair as written but a secret's value; its name read as URLSearchParams (and so pg) reads it.
    parsed.search = parsed.search
      .slice(1)
      .split("&")
      .map((pair) => {
        const name = [...new URLSearchParams(pair).keys()][0] ?? "";
        return SECRET_PARAMETER.test(name) ? `${pair.split("=")[0]}=***` : pair;
      })
      .join("&");
    return parsed.toString();
  } catch {
    // Unparseable here (pg-connection-string repairs some such URLs): nothing of it is shown.
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
