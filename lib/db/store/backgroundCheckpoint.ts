import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";

/**
 * Copies a SQLite file's write-ahead log into the file on a worker thread.
 *
 * SQLite checkpoints on the committing connection once the log passes a
 * thousand pages, synchronously: after a promoted label import (26 MB of log)
 * that took 110–120 ms of the only thread, on top of the COMMIT itself. A
 * transaction that writes that much commits with the automatic checkpoint
 * off, and this runs the same PASSIVE checkpoint (it copies what no reader
 * still needs and never waits) on the worker's own connection. Measured again
 * by `npm run bench:labels` (20,000 labels): another request waited at worst
 * 50–65 ms behind the import with it, 250–360 ms without.
 */
const CHECKPOINT_SOURCE = `
const { workerData } = require("node:worker_threads");
const Database = require("better-sqlite3");
const connection = new Database(workerData.file, { timeout: 0 });
try { connection.pragma("wal_checkpoint(PASSIVE)"); } finally { connection.close(); }
`;

const running = new Map<string, Promise<void>>();

/**
 * Starts a checkpoint of the connection's file unless one is running. Best effort: where the worker cannot
 * start (better-sqlite3 not resolvable from the working directory), the connection checkpoints itself, as
 * SQLite would have at COMMIT; a failed checkpoint only leaves the log longer until the next one.
 */
function checkpointInBackground(connection: Database.Database): Promise<void> {
  const file = connection.name;
  const inFlight = running.get(file);
  if (inFlight) return inFlight;
  const done = new Promise<void>((resolve) => {
    const onThisThread = () => {
      try {
        if (connection.open) connection.pragma("wal_checkpoint(PASSIVE)");
      } catch {
        // The next commit past the threshold checkpoints again.
      }
    };
    let failed = false;
    try {
      const worker = new Worker(CHECKPOINT_SOURCE, { eval: true, workerData: { file } });
      worker.once("error", () => (failed = true));
      worker.once("exit", (code) => {
        if (failed || code !== 0) onThisThread();
        resolve();
      });
    } catch {
      onThisThread();
      resolve();
    }
  }).finally(() => running.delete(file));
  running.set(file, done);
  return done;
}

/** SQLite's own threshold, in pages, for checkpointing at COMMIT. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;
const deferring = new WeakMap<Database.Database, number>();

/**
 * Runs a large write with the connection's automatic checkpoint off, then checkpoints on a worker thread and
 * waits for it before turning the automatic one back on: a commit of this connection in between (the
 * import's clean-up deleting its staged rows) would otherwise checkpoint the whole log on this thread.
 * Counted, so that two such writes at once restore it only when both are done.
 */
export async function checkpointOffThreadAfter<T>(connection: Database.Database, write: () => Promise<T>): Promise<T> {
  const before = deferring.get(connection) ?? 0;
  deferring.set(connection, before + 1);
  if (before === 0) connection.pragma("wal_autocheckpoint = 0");
  try {
    const result = await write();
    await checkpointInBackground(connection);
    return result;
  } finally {
    const left = (deferring.get(connection) ?? 1) - 1;
    if (left > 0) deferring.set(connection, left);
    else {
      deferring.delete(connection);
      if (connection.open) connection.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
    }
  }
}

/** Waits for a file's background checkpoint, if one runs (before its connection closes or the file goes). */
export async function checkpointSettled(file: string): Promise<void> {
  await running.get(file);
}
