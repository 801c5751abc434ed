// Child processes a test file starts end with that file's process, on every
// path: a normal exit, and the SIGTERM vitest sends a worker it is done with
// (a signal skips 'exit' handlers, which is how next-server processes used to
// outlive failed browser tests).
import type { ChildProcess } from "node:child_process";

type Tracked = { pid: number; group: boolean };

const live = new Set<Tracked>();
let installed = false;

/**
 * Kills `child` (its whole process group when it was spawned detached) if this
 * process ends first. Returns the function to call once the child has been
 * stopped normally.
 */
export function endWithThisProcess(child: ChildProcess, options: { group: boolean }): () => void {
  if (child.pid === undefined) return () => {};
  installHandlers();
  const tracked: Tracked = { pid: child.pid, group: options.group };
  live.add(tracked);
  child.once("exit", () => {
    if (!options.group) live.delete(tracked);
  });
  return () => {
    live.delete(tracked);
  };
}

function killAll(): void {
  for (const { pid, group } of live) {
    try {
      process.kill(group ? -pid : pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  live.clear();
}

function installHandlers(): void {
  if (installed) return;
  installed = true;
  process.on("exit", killAll);
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    process.once(signal, () => {
      killAll();
      // Keep the signal's meaning: die by it, unless someone else (Playwright) also handles it.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}
