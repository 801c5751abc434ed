import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { getDataset, getInputCoverage } from "@/lib/db/datasets/datasetQueries";
import { metricAvailability } from "@/lib/metrics/availability";
import { toCsv, toJsonArray, toJsonl } from "../support/evalFiles";
import { createTempDb } from "../support/tempDb";
import { ingestIntoDb } from "./ingestIntoTempDb";
import { DEEPEVAL_CASES, DEEPEVAL_NOTICE } from "./support/foreignDatasets";

let db: Db;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ db, cleanup } = await createTempDb());
});
afterAll(async () => cleanup());

type Stored = Awaited<ReturnType<typeof ingestIntoDb>>["storedRows"][number];
const chunksOf = (row: Stored, kind: "retrieved" | "expected") =>
  row.chunks.filter((chunk) => chunk.kind === kind).map((chunk) => [chunk.content, chunk.docUri]);

describe("DeepEval test cases are read into the Agent Evaluation input schema", () => {
  it("a JSON array: request, response, expected_response, both contexts in order, name as request_id, one notice", async () => {
    const { result, storedRows } = await ingestIntoDb(db, "deepeval.json", toJsonArray(DEEPEVAL_CASES), "strict");
    expect(result).toMatchObject({ ok: true, rowCount: 2, notice: DEEPEVAL_NOTICE });
    // DeepEval fields beyond the mapping still get the one bounded unknown-column warning.
    expect(result.warnings).toEqual([expect.stringMatching(/^Unknown column "additional_metadata" was ignored/)]);
    const [first, second] = storedRows;
    expect(first).toMatchObject({
      requestId: "versioning",
      requestText: "Is versioning on by default?",
      requestFormat: "string",
      response: "No. Versioning is disabled by default on new buckets.",
      responseSource: "column",
      expectedResponse: "Versioning is disabled by default on new buckets.",
      expectedFacts: null,
    });
    expect(chunksOf(first, "retrieved")).toEqual([
      ["Versioning is disabled by default on new buckets.", "retrieval_context[0]"],
      ["Lifecycle rules can expire old object versions.", "retrieval_context[1]"],
    ]);
    // The ideal passage retrieved word for word shares its doc_uri; the other keeps its own.
    expect(chunksOf(first, "expected")).toEqual([
      ["Versioning is disabled by default on new buckets.", "retrieval_context[0]"],
      ["Enable versioning in the bucket settings.", "context[1]"],
    ]);
    expect(second.requestId).toBe("presign");
    expect(chunksOf(second, "expected")).toEqual([
      ["Presigned URLs expire after at most 7 days.", "retrieval_context[0]"],
    ]);
    // The dataset page keeps saying how the file was read, first among its notes.
    const dataset = await getDataset(db, result.ok ? result.datasetId : "");
    expect(dataset?.warnings[0]).toBe(DEEPEVAL_NOTICE);

    // Rows carry retrieval context and the ideal context, so the context metrics and hallucination can run on every row.
    const coverage = await getInputCoverage(db, result.ok ? result.datasetId : "");
    const status = Object.fromEntries(metricAvailability(coverage).map((entry) => [entry.metric.name, entry.status]));
    expect(status).toMatchObject({
      "response/llm_judged/faithfulness": "all",
      "retrieval/llm_judged/contextual_precision": "all",
      "retrieval/llm_judged/contextual_recall": "all",
      "retrieval/llm_judged/contextual_relevancy": "all",
      "response/llm_judged/hallucination": "all",
    });
  });

  it("JSONL: the same rows; an error on row N names the DeepEval column, not the schema's", async () => {
    const ok = await ingestIntoDb(db, "deepeval.jsonl", toJsonl(DEEPEVAL_CASES), "strict");
    expect(ok.result).toMatchObject({ ok: true, rowCount: 2, notice: DEEPEVAL_NOTICE });
    expect(ok.storedRows.map((row) => [row.requestId, row.requestText, row.expectedResponse])).toEqual([
      ["versioning", "Is versioning on by default?", "Versioning is disabled by default on new buckets."],
      ["presign", "How long can a presigned URL last?", "Up to 7 days."],
    ]);

    const broken = [
      ...DEEPEVAL_CASES,
      { name: "bad-chunks", input: "q3", actual_output: "a3", retrieval_context: ["fine", 42] },
      { name: "no-input", actual_output: "a4" },
      { name: "presign", input: "q5", actual_output: "a5", context: "not a list" },
    ];
    const bad = await ingestIntoDb(db, "deepeval-broken.jsonl", toJsonl(broken), "strict");
    expect(bad.result).toMatchObject({ ok: false, notice: DEEPEVAL_NOTICE });
    expect(bad.messages).toEqual([
      "row 3, column retrieval_context: retrieval_context[1] is a number, expected a string",
      "row 4, column input: input is required",
      "row 5, column context: expected an array of strings, got a string",
      'row 5, column name: name "presign" is also used by row 2',
    ]);
    expect(bad.added).toEqual({ datasets: 0, rows: 0 });
  });

  it("a later record with an Agent Evaluation column is a row error, not silently dropped", async () => {
    const rows = [
      { input: "q1", actual_output: "a1" },
      { input: "q2", actual_output: "a2", request: "q2 again" },
    ];
    const { result, messages } = await ingestIntoDb(db, "deepeval-late.jsonl", toJsonl(rows), "strict");
    expect(result).toMatchObject({ ok: false, notice: expect.stringMatching(/^Read as DeepEval test cases: /) });
    expect(messages).toEqual([
      "row 2, column request: this file is read as DeepEval test cases (decided from its first record), which have no request column; use one column set per file",
    ]);
  });

  it("a file with both request and input is read as the schema's own columns (not mapped)", async () => {
    const rows = [{ request: "q1", input: "other", actual_output: "a1", response: "r1" }];
    const { result, storedRows } = await ingestIntoDb(db, "mixed.jsonl", toJsonl(rows), "strict");
    expect(result).toMatchObject({ ok: true, notice: null });
    expect(storedRows[0]).toMatchObject({ requestText: "q1", response: "r1" });
    expect(result.warnings).toEqual([expect.stringMatching(/^Unknown columns "input", "actual_output" were ignored/)]);
  });
});

describe("Ragas samples are read into the Agent Evaluation input schema", () => {
  it("a v0.1 CSV (list columns as JSON cells): question, answer, contexts, ground_truth", async () => {
    const rows = [
      {
        question: "Is versioning on by default?",
        answer: "No, it is off.",
        contexts: ["Versioning is disabled by default.", 'Buckets hold "objects".'],
        ground_truth: "Versioning is disabled by default.",
      },
      { question: "How long can a presigned URL last?", answer: "7 days.", contexts: [], ground_truth: "7 days." },
    ];
    const { result, storedRows } = await ingestIntoDb(db, "ragas.csv", toCsv(rows), "strict");
    expect(result).toMatchObject({
      ok: true,
      rowCount: 2,
      warnings: [],
      notice:
        'Read as Ragas samples (v0.1 column names): question → request, answer → response, contexts → retrieved_context, ground_truth → expected_response. Each passage became a chunk with doc_uri "contexts[i]".',
    });
    expect(storedRows[0]).toMatchObject({
      requestId: "auto-1",
      requestText: "Is versioning on by default?",
      response: "No, it is off.",
      expectedResponse: "Versioning is disabled by default.",
    });
    expect(chunksOf(storedRows[0], "retrieved")).toEqual([
      ["Versioning is disabled by default.", "contexts[0]"],
      ['Buckets hold "objects".', "contexts[1]"],
    ]);
    expect(chunksOf(storedRows[1], "retrieved")).toEqual([]);
  });

  it("a v0.1 CSV whose list cell is not JSON: the error names contexts", async () => {
    const csv = 'question,answer,contexts\r\nq1,a1,"[""c""]"\r\nq2,a2,just text\r\n';
    const { messages } = await ingestIntoDb(db, "ragas-bad.csv", csv, "strict");
    expect(messages).toEqual([
      'row 2 (line 3), column contexts: expected a JSON array of strings in this cell, e.g. ["first", "second"]',
    ]);
  });

  it("ground_truths (an array) becomes expected_facts", async () => {
    const rows = [{ question: "q1", answer: "a1", ground_truths: ["fact one", "fact two"] }];
    const { result, storedRows } = await ingestIntoDb(db, "ragas-facts.jsonl", toJsonl(rows), "strict");
    expect(result).toMatchObject({ ok: true, notice: expect.stringContaining("ground_truths → expected_facts") });
    expect(storedRows[0].expectedFacts).toBe(JSON.stringify(["fact one", "fact two"]));
  });

  it("a v0.2 JSONL: user_input, response, retrieved_contexts, reference, reference_contexts", async () => {
    const rows = [
      {
        user_input: "Where are the logs?",
        response: "In the logs bucket.",
        retrieved_contexts: ["Logs go to the logs bucket.", "Metrics go to the metrics store."],
        reference: "They are in the logs bucket.",
        reference_contexts: ["Logs go to the logs bucket."],
      },
    ];
    const { result, storedRows } = await ingestIntoDb(db, "ragas.jsonl", toJsonl(rows), "strict");
    expect(result).toMatchObject({
      ok: true,
      warnings: [],
      notice:
        'Read as Ragas samples (v0.2+ column names): user_input → request, response → response, retrieved_contexts → retrieved_context, reference → expected_response, reference_contexts → expected_retrieved_context. Each passage became a chunk with doc_uri "retrieved_contexts[i]" and "reference_contexts[i]" (a reference_contexts passage with the same text as a retrieved one takes its doc_uri, so document recall counts passages retrieved word for word).',
    });
    expect(storedRows[0]).toMatchObject({
      requestText: "Where are the logs?",
      response: "In the logs bucket.",
      expectedResponse: "They are in the logs bucket.",
    });
    expect(chunksOf(storedRows[0], "retrieved")).toEqual([
      ["Logs go to the logs bucket.", "retrieved_contexts[0]"],
      ["Metrics go to the metrics store.", "retrieved_contexts[1]"],
    ]);
    expect(chunksOf(storedRows[0], "expected")).toEqual([["Logs go to the logs bucket.", "retrieved_contexts[0]"]]);
  });

  it("JSON: a column the first record leaves out is still read from later records", async () => {
    const rows = [
      { user_input: "Where are the logs?", retrieved_contexts: ["Logs go to the logs bucket."] },
      { user_input: "Where are the metrics?", response: "In the metrics store.", reference: "The metrics store." },
    ];
    const { result, storedRows } = await ingestIntoDb(db, "ragas-sparse.jsonl", toJsonl(rows), "strict");
    expect(result).toMatchObject({
      ok: true,
      warnings: [],
      notice: expect.stringContaining(
        "user_input → request, retrieved_contexts → retrieved_context; the format's other columns are read where a record has them",
      ),
    });
    expect(storedRows[1]).toMatchObject({
      requestText: "Where are the metrics?",
      response: "In the metrics store.",
      expectedResponse: "The metrics store.",
    });
  });

  it("a pandas CSV's Python list in a list cell: the error says so and how to write it", async () => {
    const csv = "question,answer,contexts\r\nq1,a1,\"['first', 'second']\"\r\n";
    const { messages } = await ingestIntoDb(db, "ragas-pandas.csv", csv, "strict");
    expect(messages).toEqual([
      'row 1 (line 2), column contexts: the cell is a Python list (single quotes, as pandas writes one); write it as a JSON array with double quotes, e.g. ["first", "second"]',
    ]);
  });

  it("v0.1 and v0.2 names for the same column in one file are ambiguous: not mapped", async () => {
    const rows = [{ question: "q1", user_input: "q1", answer: "a1" }];
    const { result, messages } = await ingestIntoDb(db, "ragas-mixed.jsonl", toJsonl(rows), "strict");
    expect(result).toMatchObject({
      ok: false,
      notice: null,
      fileError: expect.stringMatching(/^No column gives the request\. Found columns: question, user_input, answer\./),
    });
    // Said once for the file, not as a "request is required" on every row.
    expect(messages).toEqual([]);
  });
});
