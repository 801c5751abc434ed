import { describe, expect, it } from "vitest";
import { createUploadGate, maxConcurrentUploadsFromEnv } from "@/lib/server/uploadGate";

describe("at most N uploads at once", () => {
  it("the third of three waits, is told so, and starts when one finishes", async () => {
    const gate = createUploadGate(2);
    const queued: string[] = [];
    const note = (name: string) => (ahead: number, running: number) =>
      queued.push(`${name}: ${running} running, ${ahead} ahead`);
    const leaveA = await gate.enter(note("a"));
    const leaveB = await gate.enter(note("b"));
    let cStarted = false;
    const c = gate.enter(note("c")).then((leave) => {
      cStarted = true;
      return leave;
    });
    const d = gate.enter(note("d"));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(queued).toEqual(["c: 2 running, 0 ahead", "d: 2 running, 1 ahead"]);
    expect(cStarted).toBe(false);
    expect(gate.stats()).toEqual({ running: 2, waiting: 2 });
    leaveA();
    leaveA(); // leaving twice frees one slot only
    const leaveC = await c;
    expect(cStarted).toBe(true);
    expect(gate.stats()).toEqual({ running: 2, waiting: 1 });
    leaveB();
    const leaveD = await d;
    leaveC();
    leaveD();
    expect(gate.stats()).toEqual({ running: 0, waiting: 0 });
  });

  it("a waiting upload whose client goes away leaves the queue", async () => {
    const gate = createUploadGate(1);
    const leave = await gate.enter(() => undefined);
    const abort = new AbortController();
    const waiting = gate.enter(() => undefined, abort.signal);
    expect(gate.stats().waiting).toBe(1);
    abort.abort();
    await expect(waiting).rejects.toThrow("abandoned");
    expect(gate.stats()).toEqual({ running: 1, waiting: 0 });
    leave();
    expect(gate.stats().running).toBe(0);
  });

  it("ASSAY_MAX_CONCURRENT_UPLOADS, default 2", () => {
    expect(maxConcurrentUploadsFromEnv({})).toBe(2);
    expect(maxConcurrentUploadsFromEnv({ ASSAY_MAX_CONCURRENT_UPLOADS: "5" })).toBe(5);
    expect(maxConcurrentUploadsFromEnv({ ASSAY_MAX_CONCURRENT_UPLOADS: "0" })).toBe(2);
    expect(maxConcurrentUploadsFromEnv({ ASSAY_MAX_CONCURRENT_UPLOADS: "x" })).toBe(2);
  });
});
