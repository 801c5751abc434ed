import { spawn } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { sqliteFilePath } from "@/lib/db/databaseUrl";
import { endWithThisProcess } from "./processCleanup";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The other process: opens the file with better-sqlite3, takes the write lock, holds it, then commits. */
const HOLDER = `
const Database = require("better-sqlite3");
const [file, ms] = process.argv.slice(1);
const db = new Database(file);
db.prepare("BEGIN IMMEDIATE").run();
console.log("locked");
setTimeout(() => { db.prepare("COMMIT").run(); db.close(); console.log("released"); }, Number(ms));
`;

/**
 * Another process holding the SQLite write lock (`BEGIN IMMEDIATE`) on the
 * database for `ms` milliseconds: what a backup, a second app or a long
 * migration does to Assay. Resolves once the lock is held; `released`
 * resolves when the other process has committed and exited.
 */
export async function holdWriteLock(url: string, ms: number): Promise<{ released: Promise<void>; lockedAt: number }> {
  const child = spawn(process.execPath, ["-e", HOLDER, sqliteFilePath(url), String(ms)], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const untrack = endWithThisProcess(child, { group: false });
  const lines = readline.createInterface({ input: child.stdout });
  await new Promise<void>((resolve, reject) => {
    lines.once("line", (line) => (line === "locked" ? resolve() : reject(new Error(`lock holder said ${line}`))));
    child.once("exit", (code) => reject(new Error(`lock holder exited early (${code})`)));
  });
  const lockedAt = Date.now();
  const released = new Promise<void>((resolve) =>
    child.once("exit", () => {
      untrack();
      resolve();
    }),
  );
  return { released, lockedAt };
}
