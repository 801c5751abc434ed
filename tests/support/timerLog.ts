// What a test may ask of a real wait without reading a clock: which timers the code set, for how long, and
// what was true when each one fired. "The retry went out after its 120 ms timer fired" holds on a busy
// machine and a quiet one alike; "120 ms passed" is a measurement, and speed belongs in the benchmarks.
import { vi } from "vitest";

export type FiredTimer = { ms: number; seen: unknown };

/**
 * Records every setTimeout set from now on (the real timers still run), and, for each one that fires, what
 * `observe()` returned just before its callback. `restore()` puts the global setTimeout back.
 */
export function recordTimers(observe: () => unknown = () => undefined): {
  set: () => number[];
  fired: () => FiredTimer[];
  restore: () => void;
} {
  const realSetTimeout = globalThis.setTimeout;
  const set: number[] = [];
  const fired: FiredTimer[] = [];
  const spy = vi.spyOn(globalThis, "setTimeout").mockImplementation(((
    callback: (...args: unknown[]) => void,
    ms?: number,
    ...args: unknown[]
  ) => {
    const delay = ms ?? 0;
    set.push(delay);
    return realSetTimeout(
      (...callbackArgs: unknown[]) => {
        fired.push({ ms: delay, seen: observe() });
        callback(...callbackArgs);
      },
      delay,
      ...args,
    );
  }) as unknown as typeof setTimeout);
  return { set: () => [...set], fired: () => [...fired], restore: () => spy.mockRestore() };
}
