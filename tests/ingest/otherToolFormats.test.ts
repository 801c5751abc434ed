// Files from other evaluation tools: MLflow 3, Braintrust, OpenAI evals and Langfuse datasets are read into the
// Agent Evaluation input schema with one notice each; a file no format fits fails once, at file level, naming its
// columns; warnings are given on failure as on success; problem counts name the rows that have them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { describeUploadProblems } from "@/lib/ingest/uploadSummary";
import { toCsv, toJsonl } from "../support/evalFiles";
import { createTempDb } from "../support/tempDb";
import { ingestIntoDb } from "./ingestIntoTempDb";

let db: Db;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ db, cleanup } = await createTempDb());
});
afterAll(async () => cleanup());

type Stored = Awaited<ReturnType<typeof ingestIntoDb>>["storedRows"][number];
const chunksOf = (row: Stored, kind: "retrieved" | "expected") =>
  row.chunks.filter((chunk) => chunk.kind === kind).map((chunk) => [chunk.content, chunk.docUri]);

const ACCEPTED =
  "Assay reads: Agent Evaluation's input schema (request, response, …), DeepEval test cases, Ragas samples, MLflow 3 evaluation datasets, Braintrust records, OpenAI evals samples, Langfuse dataset items.";

describe("a file no format fits fails once, at file level", () => {
  it("5,000 rows without a request column: one message naming the columns found and the formats, not 5,000 row errors", async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({ query_text: `q${i}`, answer_text: `a${i}`, gold: `g${i}` }));
    const { result, messages, added } = await ingestIntoDb(db, "mystery.csv", toCsv(rows), "strict");
    if (result.ok) throw new Error("expected a failed upload");
    expect(result.fileError).toBe(
      `No column gives the request. Found columns: query_text, answer_text, gold. ${ACCEPTED} Rename the question column to request, or use one of these formats' column names.`,
    );
    expect(messages).toEqual([]);
    expect(result).toMatchObject({ issueCount: 0, rowsRead: 5000, rowsWithProblems: 0 });
    // The server's own word on the columns it ignored comes back with the failure too.
    expect(result.warnings).toEqual([
      expect.stringMatching(/^Unknown columns "query_text", "answer_text", "gold" were ignored/),
    ]);
    expect(added).toEqual({ datasets: 0, rows: 0 });
  });

  it("other problems are still listed beside the file-level message, and counted apart from it", async () => {
    const lines = [JSON.stringify({ prompt_text: "q1" }), "[1, 2]", JSON.stringify({ prompt_text: "q3" })];
    const { result, messages } = await ingestIntoDb(db, "mystery.jsonl", lines.join("\n"), "strict");
    expect(result).toMatchObject({
      ok: false,
      fileError: expect.stringMatching(/^No column gives the request\. Found columns: prompt_text\. /),
      issueCount: 1,
      rowsWithProblems: 1,
    });
    expect(messages).toEqual(["row 2: expected an object with columns such as request and response, got an array"]);
  });

  it("a request column on some rows keeps the per-row message on the others", async () => {
    const lines = [JSON.stringify({ request: "q1" }), JSON.stringify({ response: "no request" })];
    const { result, messages } = await ingestIntoDb(db, "partial.jsonl", lines.join("\n"), "strict");
    expect(result).toMatchObject({ ok: false, fileError: null, issueCount: 1, rowsWithProblems: 1, rowsRead: 2 });
    expect(messages).toEqual(["row 2, column request: request is required"]);
  });
});

describe("OpenAI evals samples", () => {
  it("legacy prompt, completion, ideal in a 5,000-row CSV: read, with one notice", async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({
      prompt: `Question ${i}?`,
      completion: `Answer ${i}.`,
      ideal: `Ideal ${i}.`,
    }));
    const { result, storedRows } = await ingestIntoDb(db, "openai-evals.csv", toCsv(rows), "strict");
    expect(result).toMatchObject({
      ok: true,
      rowCount: 5000,
      warnings: [],
      notice:
        "Read as OpenAI evals samples: prompt → request, completion → response, ideal → expected_response (or expected_facts when it is a list).",
    });
    expect(storedRows[4999]).toMatchObject({
      requestText: "Question 4999?",
      response: "Answer 4999.",
      expectedResponse: "Ideal 4999.",
    });
  });

  it("input as chat messages and ideal as a list of answers: a chat request and expected facts", async () => {
    const rows = [
      {
        input: [
          { role: "system", content: "Answer briefly." },
          { role: "user", content: "What is 2 + 2?" },
        ],
        ideal: ["4", "four"],
      },
      { input: [{ role: "user", content: "Capital of France?" }], ideal: "Paris" },
    ];
    const { result, storedRows } = await ingestIntoDb(db, "openai-chat.jsonl", toJsonl(rows), "strict");
    expect(result).toMatchObject({
      ok: true,
      rowCount: 2,
      notice:
        "Read as OpenAI evals samples: input → request, ideal → expected_response (or expected_facts when it is a list); the format's other columns are read where a record has them. Read input as chat messages (2 rows), ideal lists as expected_facts (1 row).",
    });
    expect(storedRows[0]).toMatchObject({
      requestFormat: "messages",
      requestText: "What is 2 + 2?",
      expectedFacts: JSON.stringify(["4", "four"]),
      expectedResponse: null,
    });
    expect(storedRows[1]).toMatchObject({ requestText: "Capital of France?", expectedResponse: "Paris" });
  });
});

describe("MLflow 3 evaluation datasets", () => {
  it("inputs, outputs, expectations: the question key named, expectations by key, guidelines warned about", async () => {
    const rows = [
      {
        inputs: { question: "Is versioning on by default?" },
        outputs: "No, it is off by default.",
        expectations: {
          expected_facts: ["Versioning is off by default."],
          expected_retrieved_context: [{ doc_uri: "docs/versioning.md", content: "Versioning is off by default." }],
          guidelines: ["Be brief."],
        },
      },
      {
        inputs: { question: "How long can a presigned URL last?" },
        outputs: { response: "Up to 7 days." },
        expectations: { expected_response: "7 days." },
      },
    ];
    const { result, storedRows } = await ingestIntoDb(db, "mlflow.jsonl", toJsonl(rows), "strict");
    expect(result).toMatchObject({
      ok: true,
      rowCount: 2,
      notice:
        "Read as an MLflow 3 evaluation dataset: inputs → request, outputs → response, expectations → expected_response, expected_facts, expected_retrieved_context (by key). Read inputs.question (2 rows), outputs.response (1 row).",
      warnings: [
        "The key expectations.guidelines was ignored: Assay reads expected_response, expected_facts and expected_retrieved_context from expectations.",
      ],
    });
    expect(storedRows[0]).toMatchObject({
      requestText: "Is versioning on by default?",
      response: "No, it is off by default.",
      expectedFacts: JSON.stringify(["Versioning is off by default."]),
    });
    expect(chunksOf(storedRows[0], "expected")).toEqual([["Versioning is off by default.", "docs/versioning.md"]]);
    expect(storedRows[1]).toMatchObject({ response: "Up to 7 days.", expectedResponse: "7 days." });
  });

  it("inputs without a question key become their JSON text, and the notice says so", async () => {
    const rows = [{ inputs: { city: "Paris", days: 3 }, outputs: "A plan." }];
    const { result, storedRows } = await ingestIntoDb(db, "mlflow-kwargs.jsonl", toJsonl(rows), "strict");
    expect(result).toMatchObject({
      ok: true,
      notice: expect.stringContaining("Read inputs as JSON text (no question, query, input or messages key) (1 row)."),
    });
    expect(storedRows[0].requestText).toBe('{"city":"Paris","days":3}');
  });

  it("an expectations problem names the key inside expectations", async () => {
    const rows = [{ inputs: { question: "q" }, expectations: { expected_facts: "not a list" } }];
    const { messages } = await ingestIntoDb(db, "mlflow-bad.jsonl", toJsonl(rows), "strict");
    expect(messages).toEqual([
      'row 1, column expectations.expected_facts: expected an array of strings, e.g. ["fact one", "fact two"]',
    ]);
  });
});

describe("the same formats as CSV, dict and list cells holding JSON", () => {
  it("MLflow inputs and expectations dicts, and OpenAI evals chat input, are read from JSON cells", async () => {
    const mlflow = [
      {
        inputs: JSON.stringify({ question: "Is versioning on?" }),
        outputs: "No.",
        expectations: JSON.stringify({ expected_facts: ["Versioning is off by default."] }),
      },
    ];
    const read = await ingestIntoDb(db, "mlflow.csv", toCsv(mlflow), "strict");
    expect(read.result).toMatchObject({ ok: true, notice: expect.stringContaining("Read inputs.question (1 row).") });
    expect(read.storedRows[0]).toMatchObject({
      requestText: "Is versioning on?",
      response: "No.",
      expectedFacts: JSON.stringify(["Versioning is off by default."]),
    });

    const chat = [{ input: JSON.stringify([{ role: "user", content: "Capital of France?" }]), ideal: "Paris" }];
    const openai = await ingestIntoDb(db, "openai-chat.csv", toCsv(chat), "strict");
    expect(openai.result).toMatchObject({
      ok: true,
      notice: expect.stringContaining("Read input as chat messages (1 row)."),
    });
    expect(openai.storedRows[0]).toMatchObject({
      requestFormat: "messages",
      requestText: "Capital of France?",
      expectedResponse: "Paris",
    });
  });
});

describe("Braintrust records", () => {
  it("input, output, expected, metadata: the response and the expected answer are kept; metadata is warned about", async () => {
    const rows = Array.from({ length: 5 }, (_, i) => ({
      input: `Question ${i}?`,
      output: `Answer ${i}.`,
      expected: `Expected ${i}.`,
      metadata: { source: "prod" },
    }));
    const { result, storedRows } = await ingestIntoDb(db, "braintrust.jsonl", toJsonl(rows), "strict");
    expect(result).toMatchObject({
      ok: true,
      rowCount: 5,
      notice:
        "Read as Braintrust records: input → request, output → response, expected → expected_response (or expected_facts when it is a list); the format's other columns are read where a record has them.",
      warnings: [expect.stringMatching(/^Unknown column "metadata" was ignored/)],
    });
    expect(storedRows.map((row) => [row.requestText, row.response, row.expectedResponse])).toEqual(
      rows.map((row) => [row.input, row.output, row.expected]),
    );
  });

  it("an input dict: its question key is taken and named", async () => {
    const rows = [{ input: { query: "Where are the logs?" }, output: "In the logs bucket.", expected: "Logs bucket." }];
    const { result, storedRows } = await ingestIntoDb(db, "braintrust-dict.jsonl", toJsonl(rows), "strict");
    expect(result).toMatchObject({ ok: true, notice: expect.stringContaining("Read input.query (1 row).") });
    expect(storedRows[0].requestText).toBe("Where are the logs?");
  });
});

describe("Langfuse dataset items", () => {
  it("id, input, expectedOutput, metadata", async () => {
    const rows = [
      { id: "item-1", input: { question: "Is versioning on?" }, expectedOutput: "No.", metadata: null },
      { id: "item-2", input: "Presigned URL lifetime?", expectedOutput: { answer: "7 days" }, metadata: {} },
    ];
    const { result, storedRows } = await ingestIntoDb(db, "langfuse.json", JSON.stringify(rows), "strict");
    expect(result).toMatchObject({
      ok: true,
      notice:
        "Read as Langfuse dataset items: input → request, expectedOutput → expected_response (or expected_facts when it is a list), id → request_id. Read input.question (1 row), expectedOutput.answer (1 row).",
    });
    expect(storedRows.map((row) => [row.requestId, row.requestText, row.expectedResponse])).toEqual([
      ["item-1", "Is versioning on?", "No."],
      ["item-2", "Presigned URL lifetime?", "7 days"],
    ]);
  });
});

describe("columns that could mean two formats", () => {
  it("are read as the schema's own, and the notice says so", async () => {
    const rows = [{ input: "q1", actual_output: "a1", output: "a1 again" }];
    const { result } = await ingestIntoDb(db, "two-formats.jsonl", toJsonl(rows), "strict");
    expect(result).toMatchObject({
      ok: false,
      notice:
        "The columns input, actual_output, output could mean more than one format (DeepEval test cases, Braintrust records, OpenAI evals samples, Langfuse dataset items), so the file was read as the Agent Evaluation input schema's own columns. Keep one format's columns per file.",
      fileError: expect.stringMatching(/^No column gives the request\. Found columns: input, actual_output, output\./),
    });
  });
});

describe("a shared column beside the schema's own", () => {
  it("is a schema file missing its request, not a mix of formats: no such notice, one file-level error", async () => {
    const rows = [{ input: "q1", response: "a1" }];
    const { result, messages } = await ingestIntoDb(db, "input-response.jsonl", toJsonl(rows), "strict");
    expect(result).toMatchObject({
      ok: false,
      notice: null,
      fileError: expect.stringMatching(/^No column gives the request\. Found columns: input, response\./),
    });
    expect(messages).toEqual([]);
  });
});

describe("problem counts and places", () => {
  it("9 problems in 8 of 10 rows; a chunk's place is 'chunk 1', a message's 'message 2'", async () => {
    const good = (i: number) => ({ request: `q${i}`, response: `a${i}` });
    const rows = [
      good(1),
      { request: "q2", retrieved_context: [{ content: "x" }] },
      { request: "q3", expected_facts: [] },
      {
        request: {
          messages: [
            { role: "user", content: "hi" },
            { role: "", content: "x" },
          ],
        },
      },
      { request: "q5", expected_facts: ["f"], expected_response: "r" },
      { request: "q6", retrieved_context: "not a list" },
      { response: "no request", retrieved_context: [{ doc_uri: "" }] },
      { request: "q8", expected_retrieved_context: [{ content: "c", doc_uri: 5 }] },
      { request: "q9", response: 9 },
      good(10),
    ];
    const { result, messages } = await ingestIntoDb(db, "counts.jsonl", toJsonl(rows), "strict");
    if (result.ok) throw new Error("expected a failed upload");
    expect(messages).toEqual([
      "row 2, column retrieved_context: chunk 1, doc_uri: every chunk needs a doc_uri string",
      "row 3, column expected_facts: expected_facts is an empty array",
      "row 4, column request: invalid chat request: message 2, role: a message needs a role",
      "row 5, column expected_facts: expected_facts and expected_response are both set; keep one",
      'row 6, column retrieved_context: expected an array of {"content": ..., "doc_uri": ...} objects',
      "row 7, column request: request is required",
      "row 7, column retrieved_context: chunk 1, doc_uri: doc_uri is empty",
      "row 8, column expected_retrieved_context: chunk 1, doc_uri: every chunk needs a doc_uri string",
      "row 9, column response: expected a string",
    ]);
    expect(describeUploadProblems(result.issueCount, result.rowsWithProblems, result.rowsRead)).toBe(
      "9 problems in 8 of 10 rows. Nothing was stored.",
    );
  });
});
