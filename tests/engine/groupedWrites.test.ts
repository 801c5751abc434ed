import { describe, expect, it } from "vitest";
import { groupedWrites } from "@/lib/engine/groupedWrites";

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A writer that records its batches, answers `written` for each entry and can be held open or made to fail. */
function recordingWriter(options: { failWhen?: (batch: number[]) => boolean } = {}) {
  const batches: number[][] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  let hold: Promise<void> = Promise.resolve();
  let open: () => void = () => {};
  return {
    batches,
    mostInFlight: () => mostInFlight,
    holdNext() {
      hold = new Promise<void>((resolve) => (open = resolve));
    },
    release: () => open(),
    async write(batch: number[]): Promise<boolean[]> {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      batches.push(batch);
      await hold;
      inFlight -= 1;
      if (options.failWhen?.(batch)) throw new Error(`batch ${batch.join(",")} failed`);
      return batch.map((n) => n % 2 === 0);
    },
  };
}

describe("grouped writes (a worker's results, group-committed)", () => {
  it("writes the results handed in within one tick as one batch, and answers each its own outcome", async () => {
    const writer = recordingWriter();
    const writes = groupedWrites((batch: number[]) => writer.write(batch), {
      maxBatch: 100,
      failsEveryEntry: () => false,
    });
    const outcomes = await Promise.all([1, 2, 3, 4].map((n) => writes.save(n)));
    expect(writer.batches).toEqual([[1, 2, 3, 4]]);
    expect(outcomes).toEqual([false, true, false, true]);
  });

  it("writes one batch at a time: what arrives during a write goes in the next, at most maxBatch each", async () => {
    const writer = recordingWriter();
    const writes = groupedWrites((batch: number[]) => writer.write(batch), {
      maxBatch: 3,
      failsEveryEntry: () => false,
    });
    writer.holdNext();
    const first = writes.save(0);
    await tick();
    expect(writer.batches).toEqual([[0]]);
    const later = [1, 2, 3, 4, 5, 6, 7].map((n) => writes.save(n));
    await tick();
    expect(writer.batches).toEqual([[0]]); // still writing the first
    writer.release();
    expect(await Promise.all([first, ...later])).toEqual([true, false, true, false, true, false, true, false]);
    expect(writer.batches).toEqual([[0], [1, 2, 3], [4, 5, 6], [7]]);
    expect(writer.mostInFlight()).toBe(1);
  });

  it("when a batch fails, writes its entries one by one: only the bad one fails, the others keep their outcome", async () => {
    const writer = recordingWriter({ failWhen: (batch) => batch.includes(13) });
    const writes = groupedWrites((batch: number[]) => writer.write(batch), {
      maxBatch: 100,
      failsEveryEntry: () => false,
    });
    const settled = await Promise.allSettled([12, 13, 14].map((n) => writes.save(n)));
    expect(settled.map((s) => (s.status === "fulfilled" ? s.value : (s.reason as Error).message))).toEqual([
      true,
      "batch 13 failed",
      true,
    ]);
    expect(writer.batches).toEqual([[12, 13, 14], [12], [13], [14]]);
    // The writer goes on taking results after a failure.
    expect(await writes.save(16)).toBe(true);
  });

  it("with gatherMs, the first entry of a quiet spell waits for later ones, until the batch is full", async () => {
    const writer = recordingWriter();
    // A gather window no test could outwait: the batch goes out because it is full, not because time passed.
    const writes = groupedWrites((batch: number[]) => writer.write(batch), {
      maxBatch: 3,
      failsEveryEntry: () => false,
      gatherMs: 60_000,
    });
    const first = writes.save(1);
    for (let i = 0; i < 5; i++) await tick();
    const second = writes.save(2);
    for (let i = 0; i < 5; i++) await tick();
    // Entries handed in ticks apart still wait: nothing written yet.
    expect(writer.batches).toEqual([]);
    const third = writes.save(3);
    expect(await Promise.all([first, second, third])).toEqual([false, true, false]);
    expect(writer.batches).toEqual([[1, 2, 3]]);
  });

  it("with flushAt, a gathering batch goes once it holds that many, without waiting out the window", async () => {
    const writer = recordingWriter();
    const writes = groupedWrites((batch: number[]) => writer.write(batch), {
      maxBatch: 100,
      failsEveryEntry: () => false,
      gatherMs: 60_000,
      flushAt: 2,
    });
    const first = writes.save(6);
    for (let i = 0; i < 5; i++) await tick();
    expect(writer.batches).toEqual([]);
    expect(await Promise.all([first, writes.save(7)])).toEqual([true, false]);
    expect(writer.batches).toEqual([[6, 7]]);
  });

  it("with gatherMs, a quiet spell's batch goes out once the window closes", async () => {
    const writer = recordingWriter();
    const writes = groupedWrites((batch: number[]) => writer.write(batch), {
      maxBatch: 100,
      failsEveryEntry: () => false,
      gatherMs: 5,
    });
    expect(await Promise.all([writes.save(4), writes.save(5)])).toEqual([true, false]);
    expect(writer.batches).toEqual([[4, 5]]);
  });

  it("when the store as a whole fails, every entry of the batch fails with it, without trying each again", async () => {
    const writer = recordingWriter({ failWhen: () => true });
    const writes = groupedWrites((batch: number[]) => writer.write(batch), {
      maxBatch: 100,
      failsEveryEntry: (error) => String(error).includes("failed"),
    });
    const settled = await Promise.allSettled([1, 2, 3].map((n) => writes.save(n)));
    expect(settled.map((s) => s.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(writer.batches).toEqual([[1, 2, 3]]);
  });
});
