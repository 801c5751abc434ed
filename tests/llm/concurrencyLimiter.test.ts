import { describe, expect, it } from "vitest";
import { createLimiter } from "@/lib/llm/concurrencyLimiter";

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("createLimiter", () => {
  it("rejects nonsense limits", () => {
    expect(() => createLimiter(0)).toThrow(/positive integer/);
    expect(() => createLimiter(1.5)).toThrow(/positive integer/);
  });

  it("never exceeds max and records the peak", async () => {
    const limiter = createLimiter(3);
    let running = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        limiter.run(async () => {
          running += 1;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, 1 + (i % 3)));
          running -= 1;
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(limiter.maxObserved).toBe(3);
    expect(limiter.inFlight).toBe(0);
    expect(limiter.pending).toBe(0);
  });

  it("grants slots in FIFO order", async () => {
    const limiter = createLimiter(1);
    const order: number[] = [];
    const gate = deferred();
    const first = limiter.run(() => gate.promise);
    const waiters = [1, 2, 3, 4].map((n) => limiter.run(() => void order.push(n)));
    await tick();
    expect(limiter.pending).toBe(4);
    gate.resolve();
    await Promise.all([first, ...waiters]);
    expect(order).toEqual([1, 2, 3, 4]);
  });

  it("does not let a newcomer overtake the queue when a slot is handed over", async () => {
    const limiter = createLimiter(1);
    const release = await limiter.acquire();
    const order: string[] = [];
    const queued = limiter.acquire().then((r) => (order.push("queued"), r));
    release();
    const late = limiter.acquire().then((r) => (order.push("late"), r));
    (await queued)();
    (await late)();
    expect(order).toEqual(["queued", "late"]);
    expect(limiter.inFlight).toBe(0);
  });

  it("ignores a double release", async () => {
    const limiter = createLimiter(2);
    const a = await limiter.acquire();
    const b = await limiter.acquire();
    a();
    a();
    expect(limiter.inFlight).toBe(1);
    b();
    expect(limiter.inFlight).toBe(0);
  });

  it("releases when the function throws", async () => {
    const limiter = createLimiter(1);
    await expect(limiter.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(limiter.inFlight).toBe(0);
  });

  it("drops an aborted waiter from the queue", async () => {
    const limiter = createLimiter(1);
    const release = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    expect(limiter.pending).toBe(1);
    controller.abort();
    await expect(waiting).rejects.toBeDefined();
    expect(limiter.pending).toBe(0);
    release();
    expect(limiter.inFlight).toBe(0);
    await expect(limiter.acquire(controller.signal)).rejects.toBeDefined();
  });
});
