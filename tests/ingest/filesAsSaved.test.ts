// Files as people save them: what spreadsheets, editors and Windows tools
// write, through the real ingest path into a real SQLite file.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { describeUploadProblems } from "@/lib/ingest/uploadSummary";
import { createTempDb } from "../support/tempDb";
import { ingestIntoDb } from "./ingestIntoTempDb";

let db: Db;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTempDb()));
afterAll(async () => cleanup());

describe("a .json array with a trailing comma", () => {
  const file = '[\n  {"request": "a", "response": "x"},\n  {"request": "b", "response": "y"},\n]\n';

  it("is a file error naming the line and column of the comma, and stores nothing", async () => {
    for (const chunkBytes of [4096, 7, 1]) {
      const { result, added } = await ingestIntoDb(db, "trailing.json", file, "validRowsOnly", undefined, chunkBytes);
      expect(result).toMatchObject({
        ok: false,
        fileError:
          "The JSON array has a comma after its last element (line 3, column 36), which JSON does not allow; remove it.",
      });
      expect(added).toEqual({ datasets: 0, rows: 0 });
    }
  });

  it("still accepts the same array without the comma, and a comma inside an element's strings", async () => {
    const fixed = '[\n  {"request": "a, ]", "response": "x"},\n  {"request": "b", "response": "y"}\n]\n';
    const { result, storedRows } = await ingestIntoDb(db, "fixed.json", fixed, "strict");
    expect(result).toMatchObject({ ok: true, rowCount: 2 });
    expect(storedRows.map((row) => row.requestText)).toEqual(["a, ]", "b"]);
  });
});

describe("chat messages without content", () => {
  const rows = [
    { request_id: "ok", request: { messages: [{ role: "user", content: "What is the SLA?" }] } },
    { request_id: "missing", request: { messages: [{ role: "system", content: "Be brief." }, { role: "user" }] } },
    { request_id: "blank", request: { messages: [{ role: "user", content: "  " }] } },
    { request_id: "parts", request: { messages: [{ role: "user", content: [{ type: "text", text: "" }] }] } },
    { request_id: "history", request: { query: "And now?", history: [{ role: "assistant", content: "" }] } },
    {
      request_id: "tool-call",
      request: {
        messages: [
          { role: "user", content: "Weather in Paris?" },
          { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function" }] },
          { role: "tool", content: "18 °C" },
          { role: "user", content: "Thanks. And tomorrow?" },
        ],
      },
    },
    { request_id: "null", request: { messages: [{ role: "user", content: null }] } },
  ];

  it("are row issues naming the row, the column and the message number; a tool-call turn is fine", async () => {
    const jsonl = rows.map((row) => JSON.stringify(row)).join("\n") + "\n";
    const { result, messages, added } = await ingestIntoDb(db, "empty.jsonl", jsonl, "strict");
    expect(result).toMatchObject({ ok: false, fileError: null, issueCount: 5, rowsRead: 7, validRows: 2 });
    expect(messages).toEqual([
      "row 2, column request: invalid chat request: message 2 (user) has no content",
      "row 3, column request: invalid chat request: message 1 (user) has empty content",
      "row 4, column request: invalid chat request: message 1 (user) has empty content",
      "row 5, column request: invalid {query, history} request: history message 1 (assistant) has empty content",
      "row 7, column request: invalid chat request: message 1 (user) has null content and no tool_calls",
    ]);
    expect(added).toEqual({ datasets: 0, rows: 0 });
  });
});

describe("quotes inside unquoted CSV cells", () => {
  // Python's csv module reads this file to exactly the cells asserted below:
  // python3 -c 'import csv; print(list(csv.DictReader(open("q.csv", newline=""))))'
  const csv =
    'request_id,request,response\r\nr1,Open the link,=HYPERLINK("https://example.com/x")\r\n' +
    'r2,Which TV?,"The 55"" model, or the 5"" one"\r\nr3,Screen size?,a 5" screen and a 6.1" one\r\nr4,He said "hi",ok\r\n';

  it("are kept literally, as spreadsheets and Python's csv module read them", async () => {
    const { result, storedRows } = await ingestIntoDb(db, "quotes.csv", csv, "strict");
    expect(result).toMatchObject({ ok: true, rowCount: 4, issueCount: 0 });
    expect(storedRows.map((row) => [row.requestId, row.requestText, row.response])).toEqual([
      ["r1", "Open the link", '=HYPERLINK("https://example.com/x")'],
      ["r2", "Which TV?", 'The 55" model, or the 5" one'],
      ["r3", "Screen size?", 'a 5" screen and a 6.1" one'],
      ["r4", 'He said "hi"', "ok"],
    ]);
  });

  it("a two-row file with one problem counts 1 problem in 1 of 2 rows and blames the row that has it", async () => {
    const twoRows = 'request,response\r\n=HYPERLINK("x"),fine\r\nq2,"closed"early\r\n';
    const { result, messages } = await ingestIntoDb(db, "two.csv", twoRows, "strict");
    expect(result).toMatchObject({
      ok: false,
      fileError: null,
      issueCount: 1,
      rowsRead: 2,
      validRows: 1,
      rowsWithProblems: 1,
    });
    expect(messages).toEqual([
      'row 2 (line 3): a quote inside a cell is not escaped (write "" for a literal quote) near line 3',
    ]);
    if (result.ok) throw new Error("expected a failed upload");
    // Problems, the rows that have them, and the rows read: three different numbers, each named.
    expect(describeUploadProblems(result.issueCount, result.rowsWithProblems, result.rowsRead)).toBe(
      "1 problem in 1 of 2 rows. Nothing was stored.",
    );
    expect(describeUploadProblems(1, 1, 1)).toBe("1 problem in 1 row. Nothing was stored.");
    expect(describeUploadProblems(9, 8, 10)).toBe("9 problems in 8 of 10 rows. Nothing was stored.");
    expect(describeUploadProblems(1200, 900, 20000)).toBe("1,200 problems in 900 of 20,000 rows. Nothing was stored.");
  });
});

describe("text encodings", () => {
  // Non-ASCII on purpose: accents, a non-Latin script, and emoji (surrogate pairs in UTF-16). 60 rows, so the
  // file runs well past the first 1,024 bytes that are read whole, and small chunks cut code units and pairs.
  const kinds = [
    ["Où est la gare ?", "À gauche après le café."],
    ["東京の天気は？", "晴れ, 25 °C"],
    ["Send a 👍?", "Sure 👍🏽"],
  ];
  const expected = Array.from({ length: 60 }, (_, i) => [`r${i + 1}`, ...kinds[i % 3]]);
  const csv =
    "request_id,request,response\r\n" +
    expected
      .map(([id, request, response]) => `${id},${request},${response.includes(",") ? `"${response}"` : response}\r\n`)
      .join("");

  function utf16(text: string, endian: "le" | "be"): Uint8Array {
    const bytes = new Uint8Array(2 + text.length * 2);
    const view = new DataView(bytes.buffer);
    view.setUint16(0, 0xfeff, endian === "le");
    for (let i = 0; i < text.length; i++) view.setUint16(2 + i * 2, text.charCodeAt(i), endian === "le");
    return bytes;
  }

  it.each(["le", "be"] as const)(
    "decodes UTF-16 %s with a byte-order mark, whatever the chunk boundaries",
    async (endian) => {
      const bytes = utf16(csv, endian);
      // Odd sizes cut code units in half; 2 and 6 cut surrogate pairs between their halves; 4096 is the whole file.
      expect(bytes.length).toBeGreaterThan(3 * 1024);
      for (const chunkBytes of [1, 2, 3, 6, 7, 4096]) {
        const { result, storedRows } = await ingestIntoDb(
          db,
          `utf16-${endian}.csv`,
          bytes,
          "strict",
          undefined,
          chunkBytes,
        );
        expect(result, `chunks of ${chunkBytes} bytes`).toMatchObject({ ok: true, rowCount: 60 });
        expect(storedRows.map((row) => [row.requestId, row.requestText, row.response])).toEqual(expected);
      }
    },
  );

  it("says a Windows-1252 file is not UTF-8, on which line, and how to fix it", async () => {
    // "café" in Windows-1252 / Latin-1: é is the single byte 0xE9.
    const bytes = new Uint8Array([
      ...new TextEncoder().encode("request,response\r\nq1,fine\r\nq2,caf"),
      0xe9,
      0x0d,
      0x0a,
    ]);
    const { result, added } = await ingestIntoDb(db, "latin1.csv", bytes, "strict");
    expect(result).toMatchObject({
      ok: false,
      fileError:
        'This file is not valid UTF-8 text (the first byte that is not UTF-8 is on line 3); it was probably saved in another encoding, such as Windows-1252 or Latin-1. Save it as UTF-8 (in Excel: Save As, "CSV UTF-8") and upload it again.',
    });
    expect(added).toEqual({ datasets: 0, rows: 0 });
  });

  it("keeps the binary-file message for binary content, and for NUL-heavy UTF-16 without a byte-order mark", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
    const noBom = utf16(csv, "le").subarray(2);
    for (const bytes of [png, noBom]) {
      const { result } = await ingestIntoDb(db, "scan.csv", bytes, "strict");
      expect(result).toMatchObject({
        ok: false,
        fileError: "This looks like a binary file, not UTF-8 text. Upload a .csv, .json or .jsonl text file.",
      });
    }
  });
});
