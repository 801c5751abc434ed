import { describe, expect, it } from "vitest";
import { describeRowIssue, ingestUpload } from "@/lib/ingest/ingestUpload";
import { DEFAULT_LIMITS } from "@/lib/ingest/limits";
import { SpillingRequestIds } from "@/lib/ingest/spillingRequestIds";
import { collectingSink } from "../support/collectingSink";
import { byteChunks, toJsonl } from "../support/evalFiles";

describe("an upload's request ids past what it holds in memory", () => {
  it("answers as a Map would before and after moving its ids to a file, through deletions and any text", () => {
    const ids = new SpillingRequestIds(500);
    const expected = new Map<string, number>();
    // A fixed sequence (a small linear congruential generator): ids that collide, repeat, vanish and return.
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const shapes = [
      (n: number) => `row-${n}`,
      (n: number) => `é${n}✓`,
      (n: number) => ` ${n} `,
      () => "",
      (n: number) => `a\u0000${n}`,
    ];
    let spilledAt: number | null = null;
    try {
      for (let step = 1; step <= 20_000; step++) {
        const id = shapes[next() % shapes.length](next() % 3_000);
        const action = next() % 10;
        if (action < 6) {
          ids.set(id, step);
          expected.set(id, step);
        } else if (action < 8) {
          ids.delete(id);
          expected.delete(id);
        }
        if (ids.spilled && spilledAt === null) spilledAt = step;
        expect(ids.get(id)).toBe(expected.get(id));
        expect(ids.size).toBe(expected.size);
      }
      expect(spilledAt).not.toBeNull();
      for (const [id, row] of expected) expect(ids.get(id)).toBe(row);
      expect(ids.get("never-seen")).toBeUndefined();
      // Byte for byte: neither case nor a trailing space nor what follows a NUL makes two ids one.
      ids.set("Case", 1);
      expect(ids.get("case")).toBeUndefined();
      expect(ids.get("Case ")).toBeUndefined();
      ids.set("a\u0000x", 2);
      expect(ids.get("a\u0000y")).toBeUndefined();
    } finally {
      ids.close();
    }
  });

  it("keeps them in memory up to its limit, and a row may take back its own id there", () => {
    const ids = new SpillingRequestIds(3);
    for (const [row, id] of ["a", "b", "c"].entries()) ids.set(id, row + 1);
    ids.set("b", 9);
    expect(ids.spilled).toBe(false);
    ids.set("d", 4);
    expect(ids.spilled).toBe(true);
    expect(["a", "b", "c", "d"].map((id) => ids.get(id))).toEqual([1, 9, 3, 4]);
    ids.close();
  });

  it("still names the first row of a duplicate that came long after its ids moved to a file", async () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({ request_id: `req-${i + 1}`, request: `question ${i + 1}` }));
    rows[249].request_id = "req-20";
    rows[279].request_id = "req-260";
    const { sink, state } = collectingSink();
    const result = await ingestUpload({
      chunks: byteChunks(toJsonl(rows), 4096),
      filename: "ids.jsonl",
      mode: "strict",
      sink,
      limits: { ...DEFAULT_LIMITS, inMemoryRequestIds: 100 },
    });
    expect(result.ok).toBe(false);
    expect(result.issues.map(describeRowIssue)).toEqual([
      'row 250, column request_id: request_id "req-20" is also used by row 20',
      'row 280, column request_id: request_id "req-260" is also used by row 260',
    ]);
    expect(state.discarded).toBe(true);
  });
});
