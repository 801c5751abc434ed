import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clearCompletedRunReads, completedRunsReadKept, readOfCompletedRuns } from "@/lib/db/cache/completedRunReads";
import { createTempDb, testStore, type TempDb } from "../support/tempDb";

describe("a comparison's reads of runs, on the store under test", () => {
  let store: TempDb;
  beforeAll(async () => {
    store = await createTempDb();
  });
  afterAll(async () => store.cleanup());

  /** A read that takes 20 ms and logs when it starts and ends. */
  const timedRead = (log: string[], name: string) => async () => {
    log.push(`${name} start`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    log.push(`${name} end`);
    return name;
  };
  // SQLite's reads hold the thread, so they go one after another; PostgreSQL's wait on the network, side by side.
  const expectedOrder =
    testStore() === "sqlite" ? ["a start", "a end", "b start", "b end"] : ["a start", "b start", "a end", "b end"];

  it("spaces out the reads of runs still running only where reads hold the thread", async () => {
    const log: string[] = [];
    const running = [{ id: "run-1", status: "running", finishedAt: null }];
    const values = await Promise.all([
      readOfCompletedRuns(store.db, "scope", running, timedRead(log, "a")),
      readOfCompletedRuns(store.db, "scope", running, timedRead(log, "b")),
    ]);
    expect(values).toEqual(["a", "b"]);
    expect(log).toEqual(expectedOrder);
  });

  it("does the same for the first reads of completed runs, then answers from memory", async () => {
    clearCompletedRunReads();
    const log: string[] = [];
    const completed = (id: string) => [{ id, status: "completed", finishedAt: new Date("2026-11-24T10:00:00Z") }];
    const values = await Promise.all([
      readOfCompletedRuns(store.db, "scope", completed("run-a"), timedRead(log, "a")),
      readOfCompletedRuns(store.db, "scope", completed("run-b"), timedRead(log, "b")),
    ]);
    expect(values).toEqual(["a", "b"]);
    expect(log).toEqual(expectedOrder);
    expect(await readOfCompletedRuns(store.db, "scope", completed("run-a"), timedRead(log, "again"))).toBe("a");
    expect(log).toHaveLength(4);
  });

  it("says a completed runs' read is kept from the moment it starts, so a later request need not wait for it", async () => {
    clearCompletedRunReads();
    const runs = [{ id: "run-c", status: "completed", finishedAt: new Date("2026-11-24T10:00:00Z") }];
    expect(completedRunsReadKept("scope", runs)).toBe(false);
    let release: ((value: string) => void) | undefined;
    const read = readOfCompletedRuns(store.db, "scope", runs, () => new Promise<string>((r) => (release = r)));
    expect(completedRunsReadKept("scope", runs)).toBe(true);
    expect(completedRunsReadKept("another scope", runs)).toBe(false);
    // The read starts on a later turn on SQLite.
    while (!release) await new Promise((resolve) => setImmediate(resolve));
    release("done");
    expect(await read).toBe("done");
    expect(completedRunsReadKept("scope", runs)).toBe(true);
    // A run still being judged is never kept.
    expect(completedRunsReadKept("scope", [{ id: "run-d", status: "running", finishedAt: null }])).toBe(false);
  });
});
