import { describe, expect, it } from "vitest";
import { diffResponses, MAX_DIFF_WORDS } from "@/lib/compare/responseDiff";

const text = (segments: { text: string; changed: boolean }[]) => segments.map((s) => s.text).join("");
const changed = (segments: { text: string; changed: boolean }[]) =>
  segments.filter((s) => s.changed).map((s) => s.text.trim());

describe("the side-by-side page's response diff", () => {
  it("marks the words each side has that the other lacks, and keeps every character of both", () => {
    const a = "Open Settings, then choose Security and press Reset.";
    const b = "Open Settings, choose Privacy & Security and press Reset now.";
    const diff = diffResponses(a, b);
    if (!diff.marked) throw new Error("not marked");
    expect(text(diff.baseline)).toBe(a);
    expect(text(diff.candidate)).toBe(b);
    expect(changed(diff.baseline)).toEqual(["then", "Reset."]);
    expect(changed(diff.candidate)).toEqual(["Privacy &", "Reset now."]);
    expect(diff.changedWords).toBe(6);
  });

  it("marks nothing for the same words re-wrapped, and everything for two unrelated answers", () => {
    const same = diffResponses("one two\nthree", "one  two three");
    expect(same.marked && [...same.baseline, ...same.candidate].every((s) => !s.changed)).toBe(true);
    const apart = diffResponses("alpha beta", "gamma delta");
    expect(apart.marked && apart.changedWords).toBe(4);
  });

  it("refuses to mark responses past its size budget, saying so", () => {
    const long = "word ".repeat(MAX_DIFF_WORDS + 1);
    expect(diffResponses(long, "short")).toEqual({ marked: false, reason: expect.stringContaining("not marked") });
  });
});
