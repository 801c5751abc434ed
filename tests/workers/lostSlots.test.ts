// A worker silent past the slot timeout whose slots the store gave to another, and whose store then refuses
// to take them back (unavailable): it hands none of those slots on to its own callers, whatever the store
// says, and gives them back once the store answers again. releaseSlots is wrapped so the test can make it
// fail; everything else is the store's.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sqlOf, type Db } from "@/lib/db/client";
import { releaseSlotsOfSilentHolders } from "@/lib/db/work/inFlightSlots";
import { heartbeatWorker, registerWorker } from "@/lib/db/work/workers";
import { createStoreSlotLimiter } from "@/lib/engine/worker/storeSlotLimiter";
import { slotTimeoutMs } from "@/lib/engine/worker/workerSettings";
import type { Release } from "@/lib/llm/concurrencyLimiter";
import { createTempDb, type TempDb } from "../support/tempDb";

const storeDown = vi.hoisted(() => ({ releases: false }));
vi.mock("@/lib/db/work/inFlightSlots", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/db/work/inFlightSlots")>();
  return {
    ...actual,
    releaseSlots: (...args: Parameters<typeof actual.releaseSlots>) =>
      storeDown.releases ? Promise.reject(new Error("the store is unavailable")) : actual.releaseSlots(...args),
  };
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const worker = (id: string) => ({ id, kind: "worker" as const, host: "test", pid: 1, version: "test" });

describe("slots lost to another worker while the store refuses their release", () => {
  let store: TempDb;
  let db: Db;

  beforeAll(async () => {
    store = await createTempDb();
    db = store.db;
  });
  afterAll(async () => {
    storeDown.releases = false;
    await store?.cleanup();
  });

  it("are never handed on, and are given back once the store answers", async () => {
    const endpoint = "endpoint-lost-slots";
    await registerWorker(db, worker("worker-stalled"));
    await registerWorker(db, worker("worker-other"));
    const stalled = createStoreSlotLimiter({ db, endpoint, holder: Promise.resolve("worker-stalled"), max: 2 });
    const other = createStoreSlotLimiter({ db, endpoint, holder: Promise.resolve("worker-other"), max: 2 });
    const stalledReleases = await Promise.all([stalled.acquire(), stalled.acquire()]);
    // worker-stalled is silent past the slot timeout: its slots go to worker-other.
    await sqlOf(db).run(`UPDATE "Worker" SET "heartbeatAt" = ? WHERE "id" = 'worker-stalled'`, [
      new Date(Date.now() - slotTimeoutMs() - 1_000),
    ]);
    await heartbeatWorker(db, "worker-other", { runId: null, inFlight: 0, completed: 0 });
    expect(await releaseSlotsOfSilentHolders(db, slotTimeoutMs())).toBe(2);
    const otherReleases: Release[] = await Promise.all([other.acquire(), other.acquire()]);

    // The store now refuses releases. Its first hand-over asks the store first: slot 0 is not its own, and
    // slot 1 (granted then) is found lost. Neither goes to its callers, though their release fails.
    storeDown.releases = true;
    let granted = false;
    const next = stalled.acquire().then((release) => ((granted = true), release));
    stalledReleases[0]();
    await sleep(300);
    stalledReleases[1]();
    await sleep(400);
    expect(granted).toBe(false);
    expect(stalled.inFlight).toBe(0);

    // The store answers again: worker-other's slots, once free, are worker-stalled's to take.
    storeDown.releases = false;
    await sleep(300);
    expect(granted).toBe(false);
    otherReleases[0]();
    (await next)();
    otherReleases[1]();
    // Given back in the store once the releases' statement has run, however long a busy machine takes.
    await vi.waitFor(
      async () => {
        const held = await sqlOf(db).get<{ n: number }>(
          `SELECT COUNT(*) AS "n" FROM "InFlightSlot" WHERE "endpoint" = ? AND "holder" IS NOT NULL`,
          [endpoint],
        );
        expect(Number(held?.n)).toBe(0);
      },
      { timeout: 20_000, interval: 50 },
    );
  }, 30_000);
});
