import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "@/lib/export/csv";

describe("CSV cells", () => {
  it.each([
    ["=HYPERLINK(\"http://evil\")", `"'=HYPERLINK(""http://evil"")"`],
    ["+1+1", "'+1+1"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\t=1", "'\t=1"],
    ["plain text", "plain text"],
    ["a, b", `"a, b"`],
    ["line\nbreak", `"line\nbreak"`],
  ])("escapes %j so a spreadsheet cannot run it", (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it("keeps numbers, booleans and nulls as values (a negative score is not a formula)", () => {
    expect(csvLine([-0.5, 1, true, null, undefined])).toBe("-0.5,1,true,,\r\n");
  });

  it("writes arrays as JSON, escaped like any text", () => {
    expect(csvCell(["yes", "no", null])).toBe(`"[""yes"",""no"",null]"`);
  });
});
