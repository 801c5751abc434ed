import { describe, expect, it } from "vitest";
import { RequestIdIndex } from "@/lib/ingest/requestIdIndex";

describe("the request ids an upload has seen", () => {
  it("answers as a Map would, through growth, deletions and any text", () => {
    const index = new RequestIdIndex();
    const expected = new Map<string, number>();
    // A fixed sequence (a small linear congruential generator): ids that collide, repeat, vanish and return.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const shapes = [(n: number) => `row-${n}`, (n: number) => `é${n}✓`, (n: number) => ` ${n} `, () => ""];
    for (let step = 1; step <= 60_000; step++) {
      const id = shapes[next() % shapes.length](next() % 20_000);
      const action = next() % 10;
      if (action < 6) {
        index.set(id, step);
        expected.set(id, step);
      } else if (action < 8) {
        index.delete(id);
        expected.delete(id);
      }
      expect(index.get(id)).toBe(expected.get(id));
    }
    expect(index.size).toBe(expected.size);
    for (const [id, row] of expected) expect(index.get(id)).toBe(row);
    expect(index.get("never-seen")).toBeUndefined();
    expect(index.get("row-1 ")).toBe(expected.get("row-1 "));
  });

  it("holds a million ids in about 32 bytes each (a Map of them took 58 MB)", () => {
    const index = new RequestIdIndex();
    for (let row = 1; row <= 1_000_000; row++) index.set(`row-${row}`, row);
    expect(index.size).toBe(1_000_000);
    expect(index.get("row-1")).toBe(1);
    expect(index.get("row-1000000")).toBe(1_000_000);
    expect(index.get("row-1000001")).toBeUndefined();
    expect(index.byteSize).toBeLessThan(40 * 2 ** 20);
  });
});
