// A process that holds every slot of an endpoint, with callers waiting for one, waits on its own calls, not on
// a timer asking the store: no slot can come free in the store while all are its own. Once another process
// holds one, its callers ask the store again until it is given back. takeSlots is the real store query,
// counted (this file runs in its own process: vitest.config.ts, OWN_PROCESS).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/lib/db/client";
import * as inFlightSlots from "@/lib/db/work/inFlightSlots";
import { registerWorker } from "@/lib/db/work/workers";
import { createStoreSlotLimiter } from "@/lib/engine/worker/storeSlotLimiter";
import { createTempDb, type TempDb } from "../support/tempDb";

vi.mock("@/lib/db/work/inFlightSlots", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/db/work/inFlightSlots")>();
  return { ...original, takeSlots: vi.fn(original.takeSlots) };
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** For what must happen, however long a busy machine takes (vi.waitFor's default is 1 s). */
const WAIT = { timeout: 10_000 };
const takeSlotsCalls = () => vi.mocked(inFlightSlots.takeSlots).mock.calls.length;

/** A call that runs until `finish` is called. */
function heldCall() {
  let finish = () => {};
  const finished = new Promise<void>((resolve) => (finish = resolve));
  let started = false;
  return {
    run: async () => {
      started = true;
      await finished;
    },
    finish: () => finish(),
    started: () => started,
  };
}

describe("waiting for an endpoint's slot", () => {
  let store: TempDb;
  let db: Db;

  beforeAll(async () => {
    store = await createTempDb();
    db = store.db;
    for (const id of ["worker-a", "worker-b"])
      await registerWorker(db, { id, kind: "worker", host: "test", pid: 1, version: "test" });
  });
  afterAll(async () => store?.cleanup());

  it("asks the store nothing while this process holds every slot, and hands a freed one to the next caller", async () => {
    const limiter = createStoreSlotLimiter({ db, endpoint: "alone", holder: Promise.resolve("worker-a"), max: 2 });
    const calls = Array.from({ length: 5 }, heldCall);
    const done = calls.map((call) => limiter.run(call.run));
    await vi.waitFor(() => expect(calls.filter((call) => call.started()).length).toBe(2), WAIT);
    expect(limiter.pending).toBe(3);
    // The loop that took the two slots asks once more for the waiters (none free), then stops.
    await sleep(50);
    const asked = takeSlotsCalls();
    // Ten of the old retry loop's periods: it asked the store every 20 ms.
    await sleep(200);
    expect(takeSlotsCalls()).toBe(asked);
    // A call ends: its slot goes to the first waiter, still without a query.
    calls[0].finish();
    await vi.waitFor(() => expect(calls[2].started()).toBe(true), WAIT);
    expect(takeSlotsCalls()).toBe(asked);
    for (const call of calls) call.finish();
    await vi.waitFor(() => expect(calls.every((call) => call.started())).toBe(true), WAIT);
    for (const call of calls) call.finish();
    await Promise.all(done);
  });

  it("asks the store again while another process holds a slot, and gets it once given back", async () => {
    const a = createStoreSlotLimiter({ db, endpoint: "shared", holder: Promise.resolve("worker-a"), max: 2 });
    const b = createStoreSlotLimiter({ db, endpoint: "shared", holder: Promise.resolve("worker-b"), max: 2 });
    const other = heldCall();
    const otherDone = b.run(other.run);
    await vi.waitFor(() => expect(other.started()).toBe(true), WAIT);
    const mine = Array.from({ length: 2 }, heldCall);
    const mineDone = mine.map((call) => a.run(call.run));
    await vi.waitFor(() => expect(mine[0].started()).toBe(true), WAIT);
    expect(a.pending).toBe(1);
    const asked = takeSlotsCalls();
    await vi.waitFor(() => expect(takeSlotsCalls()).toBeGreaterThan(asked + 2), WAIT);
    other.finish();
    await otherDone;
    await vi.waitFor(() => expect(mine[1].started()).toBe(true), WAIT);
    for (const call of mine) call.finish();
    await Promise.all(mineDone);
  });
});
