import { describe, expect, it } from "vitest";
import { orderedUuid } from "@/lib/db/orderedUuid";

describe("ordered ids for primary keys", () => {
  it("are UUIDs version 7 that sort in the order they were made, thousands within one millisecond included", () => {
    const ids = Array.from({ length: 20_000 }, () => orderedUuid());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    // Their first 48 bits are the time in ms (never behind the clock by more than the ids borrowed ahead of it).
    const ms = parseInt(ids[0].replace("-", "").slice(0, 12), 16);
    expect(Math.abs(ms - Date.now())).toBeLessThan(60_000);
  });
});
