import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import type { ImportMode } from "@/lib/ingest/ingestUpload";
import { MAX_JSON_NESTING_DEPTH } from "@/lib/ingest/limits";
import { createTempDb } from "../support/tempDb";
import { ingestIntoDb } from "./ingestIntoTempDb";

const DEPTH = 20_000;
const deepArray = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const deepObject = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
const csvQuote = (text: string) => `"${text.replace(/"/g, '""')}"`;
const TOO_DEEP = `the JSON in this cell is nested deeper than ${MAX_JSON_NESTING_DEPTH} levels`;

/** Each file has a good row, the deep one, and another good row. */
const files: { label: string; filename: string; content: string; expected: string }[] = [
  {
    label: "a JSONL retrieved_context of nested arrays",
    filename: "deep.jsonl",
    content: `{"request": "q1"}\n{"request": "q2", "retrieved_context": ${deepArray(DEPTH)}}\n{"request": "q3"}\n`,
    expected: `row 2, column retrieved_context: ${TOO_DEEP}`,
  },
  {
    label: "a JSON-array request of nested objects",
    filename: "deep.json",
    content: `[\n{"request": "q1"},\n{"request": {"query": "q2", "extra": ${deepObject(DEPTH)}}},\n{"request": "q3"}\n]\n`,
    expected: `row 2 (line 3), column request: ${TOO_DEEP}`,
  },
  {
    label: "a CSV expected_facts cell",
    filename: "deep.csv",
    content: `request,expected_facts\r\nq1,\r\nq2,${csvQuote(deepArray(DEPTH))}\r\nq3,\r\n`,
    expected: `row 2 (line 3), column expected_facts: ${TOO_DEEP}`,
  },
  {
    label: "a trace given as a JSON string",
    filename: "deep-trace.jsonl",
    content: `{"request": "q1"}\n${JSON.stringify({ request: "q2", trace: `{"info": {}, "data": {"spans": [], "x": ${deepArray(DEPTH)}}}` })}\n{"request": "q3"}\n`,
    expected: `row 2, column trace: ${TOO_DEEP}`,
  },
  {
    label: "a span attribute holding nested JSON in a string",
    filename: "deep-span.jsonl",
    content: `{"request": "q1"}\n${JSON.stringify({ request: "q2", trace: { info: {}, data: { spans: [{ span_id: "A", parent_span_id: null, name: "agent", attributes: { "mlflow.spanType": '"AGENT"', "mlflow.spanOutputs": deepArray(DEPTH) } }] } } })}\n{"request": "q3"}\n`,
    expected: `row 2, column trace: data.spans[0] attribute mlflow.spanOutputs is nested deeper than ${MAX_JSON_NESTING_DEPTH} levels`,
  },
];

let db: Db;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTempDb()));
afterAll(async () => cleanup());

describe(`upload: a value nested ${DEPTH} levels deep is a row issue`, () => {
  describe.each(files)("$label", ({ filename, content, expected }) => {
    it("strict mode: names row, line and column, stores nothing", async () => {
      const { result, messages, added } = await ingestIntoDb(db, filename, content, "strict" satisfies ImportMode);
      expect(result).toMatchObject({ ok: false, fileError: null, issueCount: 1 });
      expect(messages).toEqual([expected]);
      expect(added).toEqual({ datasets: 0, rows: 0 });
    });

    it("valid-rows mode: stores the other rows and lists the deep one", async () => {
      const { result, messages, storedRows } = await ingestIntoDb(db, filename, content, "validRowsOnly");
      expect(result).toMatchObject({ ok: true, rowCount: 2, skippedRows: 1 });
      expect(messages).toEqual([expected]);
      expect(storedRows.map((row) => row.requestText)).toEqual(["q1", "q3"]);
    });
  });

  it(`accepts ${MAX_JSON_NESTING_DEPTH} levels and rejects one more`, async () => {
    // The request object is level 1, so "extra" adds MAX - 1 (then MAX) levels below it.
    const atLimit = { request: { query: "q", extra: JSON.parse(deepArray(MAX_JSON_NESTING_DEPTH - 1)) } };
    const overLimit = { request: { query: "q", extra: JSON.parse(deepArray(MAX_JSON_NESTING_DEPTH)) } };
    const ok = await ingestIntoDb(db, "limit.jsonl", JSON.stringify(atLimit) + "\n", "strict");
    expect(ok.result.ok).toBe(true);
    expect(JSON.parse(ok.storedRows[0].requestRaw)).toEqual(atLimit.request);
    const rejected = await ingestIntoDb(db, "limit.jsonl", JSON.stringify(overLimit) + "\n", "strict");
    expect(rejected.messages).toEqual([`row 1, column request: ${TOO_DEEP}`]);
  });
});
