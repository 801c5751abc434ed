import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { DEFAULT_LIMITS } from "@/lib/ingest/limits";
import { createTempDb } from "../support/tempDb";
import { ingestIntoDb } from "./ingestIntoTempDb";

const rowsFrom = (first: number, count: number, text = "an ordinary answer") =>
  Array.from({ length: count }, (_, i) => `q${first + i},${text}\r\n`).join("");

let db: Db;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTempDb()));
afterAll(async () => cleanup());

describe("CSV upload: an unclosed quote", () => {
  // Row 2 opens a quote that never closes; 12 MB of rows follow, past the 8 MB row limit.
  const MB = 1024 * 1024;
  const tail = rowsFrom(3, Math.ceil((12 * MB) / 40), "an ordinary answer that runs on a while");
  const file = `request,response\r\nq1,fine\r\nq2,"the quote opens here and never closes\r\n${tail}`;

  it("is reported once, at the line where the quote opened, and nothing is stored", async () => {
    expect(file.length).toBeGreaterThan(DEFAULT_LIMITS.maxRowBytes + 4 * MB);
    const { result, messages, added } = await ingestIntoDb(db, "unclosed.csv", file, "strict", DEFAULT_LIMITS, 65536);
    expect(result).toMatchObject({ ok: false, fileError: null, issueCount: 1 });
    expect(messages).toEqual([
      'row 2 (line 3), column response: a quoted cell opened on line 3 is never closed (the quote runs to the end of the file; write "" for a literal quote)',
    ]);
    expect(added).toEqual({ datasets: 0, rows: 0 });
  });

  it("keeps the rows before it when only valid rows are imported", async () => {
    const { result, storedRows } = await ingestIntoDb(db, "unclosed.csv", file, "validRowsOnly", DEFAULT_LIMITS, 65536);
    expect(result).toMatchObject({ ok: true, rowCount: 1, skippedRows: 1, issueCount: 1 });
    expect(storedRows.map((row) => [row.requestText, row.response])).toEqual([["q1", "fine"]]);
  });

  it("names the line of the quote when the row started on an earlier line", async () => {
    const csv = `request,response\r\nq1,fine\r\n"a request\r\non two lines","and an answer\r\nthat never ends\r\nq4,x\r\n`;
    const { messages } = await ingestIntoDb(db, "unclosed.csv", csv, "strict");
    expect(messages).toEqual([
      'row 2 (line 3), column response: a quoted cell opened on line 4 is never closed (the quote runs to the end of the file; write "" for a literal quote)',
    ]);
  });
});

describe("CSV upload: a broken row does not disturb the rows after it", () => {
  it("reports a row over the row limit once and imports every row after it", async () => {
    const limits = { ...DEFAULT_LIMITS, maxRowBytes: 1000, maxCellBytes: 500 };
    const csv = `request,response\r\nq1,fine\r\nq2,${"x".repeat(3000)}\r\n${rowsFrom(3, 300)}`;
    const { result, messages, storedRows } = await ingestIntoDb(db, "long-row.csv", csv, "validRowsOnly", limits, 64);
    expect(messages).toEqual(["row 2 (line 3): the row is about 2.9 KB, over the 1000 bytes limit for one row"]);
    expect(result).toMatchObject({ ok: true, rowCount: 301, skippedRows: 1 });
    expect(storedRows.map((row) => row.rowNumber)).toEqual([1, ...Array.from({ length: 300 }, (_, i) => i + 3)]);
    expect(storedRows.at(-1)).toMatchObject({ requestText: "q302", response: "an ordinary answer" });
  });

  it("names the line of a stray quote after a quoted cell and reads on; a quote inside an unquoted cell is text", async () => {
    const csv =
      'request,response\r\nq1,"closed"early\r\nq2,say "hi"\r\n"q3\r\ncontinues","a ""quoted"" word"\r\nq4,"multi\r\nline"x\r\nq5,ok\r\n';
    const { messages, storedRows } = await ingestIntoDb(db, "stray.csv", csv, "validRowsOnly");
    expect(messages).toEqual([
      'row 1 (line 2): a quote inside a cell is not escaped (write "" for a literal quote) near line 2',
      'row 4 (line 6): a quote inside a cell is not escaped (write "" for a literal quote) near line 7',
    ]);
    expect(storedRows.map((row) => [row.rowNumber, row.requestText, row.response])).toEqual([
      [2, "q2", 'say "hi"'],
      [3, "q3\r\ncontinues", 'a "quoted" word'],
      [5, "q5", "ok"],
    ]);
  });
});
