import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "@/lib/export/csv";

describe("CSV cells", () => {
  it.each([
    ['=HYPERLINK("http://evil")', `"'=HYPERLINK(""http://evil"")"`],
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

  it.each([
    [" =1+1", "' =1+1"],
    ["  \t@SUM(A1)", "'  \t@SUM(A1)"],
    ["\u00A0=HYPERLINK(1)", "'\u00A0=HYPERLINK(1)"],
    ["\u200B=1", "'\u200B=1"],
    ["\u200C+1", "'\u200C+1"],
    ["\u200D-1", "'\u200D-1"],
    ["\uFEFF@cmd", "'\uFEFF@cmd"],
    ["\u2060\u3000\u2007=1", "'\u2060\u3000\u2007=1"],
    ["\n=1", `"'\n=1"`],
  ])(
    "escapes %j: the first visible character after blanks and zero-width characters is a formula start",
    (value, expected) => {
      expect(csvCell(value)).toBe(expected);
    },
  );

  it.each([["a = b"], ["  plain"], ["\u200Bplain"], ["e-mail"], ["1+1"]])(
    "leaves %j alone: no formula start before the first visible character",
    (value) => {
      expect(csvCell(value)).toBe(value);
    },
  );

  it("keeps numbers, booleans and nulls as values (a negative score is not a formula)", () => {
    expect(csvLine([-0.5, 1, true, null, undefined])).toBe("-0.5,1,true,,\r\n");
  });

  it("writes arrays as JSON, escaped like any text", () => {
    expect(csvCell(["yes", "no", null])).toBe(`"[""yes"",""no"",null]"`);
  });
});
