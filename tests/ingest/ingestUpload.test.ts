import { describe, expect, it } from "vitest";
import { describeRowIssue } from "@/lib/ingest/errors";
import { ingestUpload, type ImportMode } from "@/lib/ingest/ingestUpload";
import { DEFAULT_LIMITS } from "@/lib/ingest/limits";
import { collectingSink } from "../support/collectingSink";
import { byteChunks, SAMPLE_ROWS, toCsv, toJsonArray, toJsonl } from "../support/evalFiles";

async function ingest(
  filename: string,
  content: string | Uint8Array,
  mode: ImportMode = "strict",
  limits = DEFAULT_LIMITS,
) {
  const { sink, state } = collectingSink();
  const result = await ingestUpload({ chunks: byteChunks(content, 7), filename, mode, sink, limits });
  return { result, state, messages: result.ok ? [] : result.issues.map(describeRowIssue) };
}

describe("ingestUpload: formats", () => {
  it("reads CSV, JSON and JSONL of the same rows into identical normalised rows", async () => {
    const outcomes = await Promise.all([
      ingest("set.jsonl", toJsonl(SAMPLE_ROWS)),
      ingest("set.json", toJsonArray(SAMPLE_ROWS)),
      ingest("set.csv", toCsv(SAMPLE_ROWS)),
    ]);
    for (const { result } of outcomes) expect(result).toMatchObject({ ok: true, rowCount: 3 });
    const [jsonl, json, csv] = outcomes.map(({ state }) => state.rows);
    expect(json).toEqual(jsonl);
    expect(csv).toEqual(jsonl);
    expect(jsonl[1].requestId).toBe("2");
    expect(jsonl[2].requestId).toBe("auto-3");
  });

  it("normalises all three request formats to messages and keeps the original", async () => {
    const { state } = await ingest("set.jsonl", toJsonl(SAMPLE_ROWS));
    const [plain, chat, split] = state.rows;
    expect(plain.requestFormat).toBe("string");
    expect(plain.messages).toEqual([{ role: "user", content: "How do I enable versioning on a bucket?" }]);
    expect(chat.requestFormat).toBe("messages");
    expect(chat.messages).toHaveLength(2);
    expect(chat.requestText).toBe("What is the max object size?");
    expect(split.requestFormat).toBe("query_history");
    expect(split.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(split.messages[2].content).toBe("And for the EU region?");
    expect(split.requestRaw).toEqual(SAMPLE_ROWS[2].request);
  });

  it("turns chunks into {content, docUri} and keeps expected context", async () => {
    const { state } = await ingest("set.jsonl", toJsonl(SAMPLE_ROWS));
    expect(state.rows[0].retrievedContext).toEqual([
      { content: "Versioning keeps every version of an object.", docUri: "docs://versioning.md" },
      { content: "Use nwcli bucket versioning enable <bucket>.", docUri: "docs://cli.md" },
    ]);
    expect(state.rows[0].expectedRetrievedContext).toEqual([{ content: null, docUri: "docs://versioning.md" }]);
  });

  it("warns once about an unknown column and still imports", async () => {
    const rows = SAMPLE_ROWS.map((row) => ({ ...row, score_v2: 1 }));
    const { result } = await ingest("set.csv", toCsv(rows));
    expect(result.ok).toBe(true);
    expect(result.warnings.filter((w) => w.includes("score_v2"))).toHaveLength(1);
  });
});

describe("ingestUpload: bad input", () => {
  it("rejects both expected_facts and expected_response on a row, with its row number, and stores nothing", async () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({ request: `q${i + 1}`, response: "a" }));
    rows[16] = { ...rows[16], expected_facts: ["x"], expected_response: "y" } as never;
    const { result, state, messages } = await ingest("set.jsonl", toJsonl(rows));
    expect(result.ok).toBe(false);
    expect(messages).toEqual([
      "row 17, column expected_facts: expected_facts and expected_response are both set; keep one",
    ]);
    expect(state.discarded).toBe(true);
    expect(state.committed).toBeNull();
  });

  it("imports only the valid rows when asked to", async () => {
    const rows = [{ request: "ok 1" }, { request: 42 }, { request: "ok 2" }];
    const { result, state } = await ingest("set.jsonl", toJsonl(rows), "validRowsOnly");
    expect(result).toMatchObject({ ok: true, rowCount: 2, skippedRows: 1 });
    expect(state.rows.map((r) => r.rowNumber)).toEqual([1, 3]);
    expect(result.ok && result.issues.map(describeRowIssue)).toEqual([
      'row 2, column request: expected a string, {"messages": [...]} or {"query": ..., "history": [...]}, got a number',
    ]);
  });

  it("lists every error in the file, not just the first", async () => {
    const lines = [
      `{"request": "a"}`,
      `{"response": "no request"}`,
      `[1, 2]`,
      `{"request": "b", "expected_facts": "not an array"}`,
      `{"request": "c", "retrieved_context": [{"content": "x"}]}`,
    ];
    const { messages } = await ingest("set.jsonl", lines.join("\n"));
    expect(messages).toEqual([
      "row 2, column request: request is required",
      "row 3: expected an object with columns such as request and response, got an array",
      'row 4, column expected_facts: expected an array of strings, e.g. ["fact one", "fact two"]',
      // The place as people name it (chunk 1 is the first chunk), not the validator's path "0.doc_uri".
      "row 5, column retrieved_context: chunk 1, doc_uri: every chunk needs a doc_uri string",
    ]);
  });

  it("names the line of invalid JSON in a JSONL file", async () => {
    const lines = Array.from({ length: 3412 }, (_, i) => JSON.stringify({ request: `q${i}` }));
    lines[3411] = `{"request": "broken",}`;
    const { messages } = await ingest("big.jsonl", lines.join("\n"));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^row 3412: invalid JSON on line 3412 \(/);
  });

  it("reports row and line separately when blank lines make them differ", async () => {
    const { messages } = await ingest("set.jsonl", `{"request": "a"}\n\n{"request": \n`);
    expect(messages[0]).toMatch(/^row 2 \(line 3\): invalid JSON on line 3/);
  });

  it("rejects a row that is not an object in a JSON array", async () => {
    const { messages } = await ingest("set.json", `[{"request": "a"}, "just a string", 7]`);
    expect(messages).toEqual([
      "row 2 (line 1): expected an object with columns such as request and response, got a string",
      "row 3 (line 1): expected an object with columns such as request and response, got a number",
    ]);
  });

  it.each([
    ["an empty file", "set.jsonl", "", "The file is empty."],
    ["a whitespace-only file", "set.csv", "  \n\n ", "The file is empty."],
    ["an empty JSON array", "set.json", "[]", "The file has no rows."],
    [
      "an unknown extension",
      "set.xlsx",
      "a,b",
      "Unsupported file type (.xlsx). Upload a .csv, .json (an array of objects), .jsonl or .parquet file.",
    ],
    [
      "no extension",
      "dataset",
      "a,b",
      "Unsupported file type (no extension). Upload a .csv, .json (an array of objects), .jsonl or .parquet file.",
    ],
    [
      "a JSON object instead of an array",
      "set.json",
      `{"request": "a"}`,
      "A .json upload must be an array of objects ([{...}, {...}]); this file holds a single object. For one object per line, use .jsonl.",
    ],
    [
      "a truncated JSON array",
      "set.json",
      `[{"request": "a"}, {"request": "b"`,
      "The JSON array is not closed: the file ends on line 1 before its final ]. Is it truncated?",
    ],
  ])("gives %s a plain message", async (_label, filename, content, expected) => {
    const { result, state } = await ingest(filename, content);
    expect(result).toMatchObject({ ok: false, fileError: expected });
    expect(state.committed).toBeNull();
  });

  it("rejects a binary file", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
    const { result } = await ingest("set.jsonl", png);
    expect(result).toMatchObject({ ok: false, fileError: expect.stringContaining("binary file") });
  });

  it("rejects bytes that are not UTF-8, saying so and how to fix it", async () => {
    const { result } = await ingest("set.csv", new Uint8Array([0x72, 0x65, 0x71, 0xff, 0xfe, 0x0a]));
    expect(result).toMatchObject({ ok: false, fileError: expect.stringContaining("not valid UTF-8") });
    expect(result).toMatchObject({ ok: false, fileError: expect.stringContaining("Save it as UTF-8") });
  });

  it("rejects a 5 MB cell, naming its row and column", async () => {
    const rows = [{ request: "a" }, { request: "b", response: "x".repeat(5 * 1024 * 1024) }];
    for (const [name, text] of [
      ["set.jsonl", toJsonl(rows)],
      ["set.csv", toCsv(rows)],
      ["set.json", toJsonArray(rows)],
    ]) {
      const { messages } = await ingest(name, text);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatch(
        /^row 2( \(line \d+\))?, column response: the cell is 5\.0 MB, over the 2\.0 MB limit for one cell$/,
      );
    }
  });

  it("rejects a chunk content over the cell limit inside a JSON array cell", async () => {
    const rows = [{ request: "a", retrieved_context: [{ content: "y".repeat(3 * 1024 * 1024), doc_uri: "d" }] }];
    const { messages } = await ingest("set.jsonl", toJsonl(rows));
    expect(messages).toEqual([
      "row 1, column retrieved_context: a text in this cell is 3.0 MB, over the 2.0 MB limit for one cell",
    ]);
  });

  it("rejects a row over the row limit without buffering it", async () => {
    const limits = { ...DEFAULT_LIMITS, maxRowBytes: 1000, maxCellBytes: 500 };
    const text = toJsonl([{ request: "a" }, { request: "b".repeat(5000) }, { request: "c" }]);
    const { messages } = await ingest("set.jsonl", text, "strict", limits);
    expect(messages).toEqual(["row 2: the row is about 4.9 KB, over the 1000 bytes limit for one row"]);
  });

  it("rejects a file over the size limit", async () => {
    const limits = { ...DEFAULT_LIMITS, maxFileBytes: 1024 };
    const { result } = await ingest(
      "set.jsonl",
      toJsonl(Array.from({ length: 100 }, (_, i) => ({ request: `question ${i}` }))),
      "strict",
      limits,
    );
    expect(result).toMatchObject({ ok: false, fileError: "The file is larger than the 1.0 KB limit." });
  });

  it("rejects duplicate request ids, naming the first row", async () => {
    const { messages } = await ingest(
      "set.jsonl",
      toJsonl([
        { request_id: "a", request: "x" },
        { request_id: "a", request: "y" },
      ]),
    );
    expect(messages).toEqual(['row 2, column request_id: request_id "a" is also used by row 1']);
  });

  it("reports CSV structure problems with the line number, and keeps counting rows after them", async () => {
    const csv = 'request,response\n"q1",a\n"q2",b,extra\n"q3",c\n"q4\nspans two lines",d\n"q5",e,f\n"q6",g\n';
    const { messages, result } = await ingest("set.csv", csv, "validRowsOnly");
    expect(messages).toEqual([]);
    expect(result.ok && result.issues.map(describeRowIssue)).toEqual([
      "row 2 (line 3): has 3 cells but the header has 2 columns",
      "row 5 (line 7): has 3 cells but the header has 2 columns",
    ]);
    const { state } = await ingest("set.csv", csv, "validRowsOnly");
    expect(state.rows.map((r) => [r.rowNumber, r.requestText])).toEqual([
      [1, "q1"],
      [3, "q3"],
      [4, "q4\nspans two lines"],
      [6, "q6"],
    ]);
  });

  it("rejects a CSV JSON cell that does not parse", async () => {
    const csv = 'request,expected_facts\nq1,"[""a"", "\n';
    const { messages } = await ingest("set.csv", csv);
    expect(messages).toEqual(["row 1 (line 2), column expected_facts: the cell looks like JSON but does not parse"]);
  });
});
