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

  it.each([
    ["\u0085=1", "'\u0085=1"],
    ["\u001f=1", "'\u001f=1"],
    ["\u0000=1", "'\u0000=1"],
    ["\u007f+1", "'\u007f+1"],
    ["\u0001\u0085 \u200B@cmd", "'\u0001\u0085 \u200B@cmd"],
    ["\u000b-1", "'\u000b-1"],
  ])("escapes %j: control characters (C0, DEL, C1) before a formula start are skipped", (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it.each([
    ["\uFF1D1+1", "'\uFF1D1+1"],
    ["\uFF0BSUM(A1)", "'\uFF0BSUM(A1)"],
    ["\uFF0D2", "'\uFF0D2"],
    ["\uFF20cmd", "'\uFF20cmd"],
    ["\u0085\u3000\uFF1D1", "'\u0085\u3000\uFF1D1"],
  ])("escapes %j: a full-width = + - @ starts a formula too", (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it.each([["a = b"], ["a \uFF1D b"], ["\u0085plain"], ["  plain"], ["\u200Bplain"], ["e-mail"], ["1+1"]])(
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
