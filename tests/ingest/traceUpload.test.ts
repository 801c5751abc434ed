import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { toJsonl } from "../support/evalFiles";
import { createTempDb } from "../support/tempDb";
import { ingestIntoDb } from "./ingestIntoTempDb";

const j = (value: unknown) => JSON.stringify(value);

type SpanSpec = {
  id: string;
  parent: string | null;
  name: string;
  type: string;
  start: number;
  attributes?: Record<string, unknown>;
};

/** An MLflow 3 trace: span attributes JSON-encoded, times in nanoseconds. */
function mlflowTrace(spans: SpanSpec[]) {
  return {
    info: { trace_id: "tr-1", execution_duration: "2.0s", state: "OK" },
    data: {
      spans: spans.map((span) => ({
        span_id: span.id,
        parent_span_id: span.parent,
        name: span.name,
        start_time_unix_nano: String(1_000_000_000 + span.start * 1_000_000),
        end_time_unix_nano: String(1_000_000_000 + (span.start + 100) * 1_000_000),
        attributes: Object.fromEntries([
          ["mlflow.spanType", j(span.type)],
          ...Object.entries(span.attributes ?? {}).map(([key, value]) => [key, j(value)]),
        ]),
      })),
    },
  };
}

const root = (outputs: unknown, extra: Record<string, unknown> = {}): SpanSpec => ({
  id: "A",
  parent: null,
  name: "agent",
  type: "AGENT",
  start: 0,
  attributes: { "mlflow.spanOutputs": outputs, ...extra },
});

let db: Db;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTempDb()));
afterAll(async () => cleanup());

describe("trace upload: retrieved chunks need a doc_uri", () => {
  const withChunks = (chunks: unknown[]) =>
    mlflowTrace([
      root("Answer."),
      {
        id: "R",
        parent: "A",
        name: "search",
        type: "RETRIEVER",
        start: 10,
        attributes: { "mlflow.spanOutputs": chunks },
      },
    ]);
  const rows = [
    { request: "q1", trace: withChunks([{ page_content: "fine", metadata: { doc_uri: "doc://a" } }]) },
    // A chunk with only metadata.source and an id: no doc_uri, so no silent stand-in.
    {
      request: "q2",
      trace: withChunks([
        { page_content: "fine", metadata: { doc_uri: "doc://a" } },
        { page_content: "no uri", id: "chunk-7", metadata: { source: "s3://bucket/file.pdf" } },
      ]),
    },
    { request: "q3" },
  ];

  it("rejects the row with its row, line and field, and stores nothing in strict mode", async () => {
    const { result, messages, added } = await ingestIntoDb(db, "traces.jsonl", toJsonl(rows), "strict");
    expect(result.ok).toBe(false);
    expect(messages).toEqual([
      'row 2, column trace: data.spans[1].outputs[1]: this chunk of the last RETRIEVER span ("search") has no doc_uri; every retrieved chunk needs one, in metadata.doc_uri',
    ]);
    expect(added).toEqual({ datasets: 0, rows: 0 });
  });

  it("does not drop a chunk that has nothing to name it, and counts the others like it", async () => {
    const trace = withChunks([
      { page_content: "no uri at all" },
      "just text",
      { page_content: "ok", doc_uri: "doc://top-level" },
    ]);
    const csvLine = `request,trace\r\nq1,"${j(trace).replace(/"/g, '""')}"\r\n`;
    const { messages, added } = await ingestIntoDb(db, "traces.csv", csvLine, "strict");
    expect(messages).toEqual([
      'row 1 (line 2), column trace: data.spans[1].outputs[0]: this chunk of the last RETRIEVER span ("search") has no doc_uri; every retrieved chunk needs one, in metadata.doc_uri (and 1 more chunk like it)',
    ]);
    expect(added.rows).toBe(0);
  });

  it("imports the other rows when asked to, with the trace's chunks as given", async () => {
    const { result, storedRows } = await ingestIntoDb(db, "traces.jsonl", toJsonl(rows), "validRowsOnly");
    expect(result).toMatchObject({ ok: true, rowCount: 2, skippedRows: 1 });
    expect(storedRows.map((row) => row.rowNumber)).toEqual([1, 3]);
    expect(storedRows[0].chunks.map((c) => [c.kind, c.docUri, c.content, c.source])).toEqual([
      ["retrieved", "doc://a", "fine", "trace"],
    ]);
  });
});

describe("trace upload: a ResponsesAgent response is read", () => {
  const responsesOutput = {
    output: [
      {
        type: "message",
        id: "m1",
        role: "assistant",
        content: [{ type: "output_text", text: "Let me check the docs." }],
      },
      { type: "function_call", id: "f1", call_id: "c1", name: "search_docs", arguments: j({ q: "versioning" }) },
      { type: "function_call_output", call_id: "c1", output: "Versioning keeps every version." },
      {
        type: "message",
        id: "m2",
        role: "assistant",
        content: [
          { type: "output_text", text: "Versioning is enabled per bucket." },
          { type: "output_text", text: "Run `nwcli bucket versioning enable`." },
        ],
      },
    ],
  };

  it("joins the assistant messages' text from the root span's outputs, leaving out tool calls", async () => {
    const { result, storedRows } = await ingestIntoDb(
      db,
      "responses.jsonl",
      toJsonl([{ request: "How?", trace: mlflowTrace([root(responsesOutput)]) }]),
      "strict",
    );
    expect(result.ok).toBe(true);
    expect(storedRows[0].responseSource).toBe("trace");
    expect(storedRows[0].response).toBe(
      "Let me check the docs.\n\nVersioning is enabled per bucket.\nRun `nwcli bucket versioning enable`.",
    );
  });

  it("reads it from the trace's response field when the root span has no output", async () => {
    const trace = mlflowTrace([root(undefined)]);
    (trace.data as Record<string, unknown>).response = j({
      output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "From data.response." }] }],
    });
    const { storedRows } = await ingestIntoDb(db, "responses.jsonl", toJsonl([{ request: "How?", trace }]), "strict");
    expect(storedRows[0].response).toBe("From data.response.");
  });
});

describe("trace upload: token counts add up LLM and CHAT_MODEL spans only", () => {
  it("leaves out agent and tool spans and counts a wrapped chat-model call once", async () => {
    const trace = mlflowTrace([
      // An aggregate on the agent span and usage on a tool span are not LLM spans (Agent Evaluation's metric reference).
      root("Answer.", { "mlflow.chat.tokenUsage": { input_tokens: 1000, output_tokens: 100, total_tokens: 1100 } }),
      {
        id: "T",
        parent: "A",
        name: "summarise_tool",
        type: "TOOL",
        start: 5,
        attributes: { "mlflow.chat.tokenUsage": { input_tokens: 50, output_tokens: 5, total_tokens: 55 } },
      },
      // A framework's chat-model span around the autologged client span: one call, reported twice.
      {
        id: "C",
        parent: "A",
        name: "ChatOpenAI",
        type: "CHAT_MODEL",
        start: 10,
        attributes: { "mlflow.chat.tokenUsage": { input_tokens: 300, output_tokens: 40, total_tokens: 340 } },
      },
      {
        id: "D",
        parent: "C",
        name: "Completions",
        type: "CHAT_MODEL",
        start: 11,
        attributes: {
          "mlflow.spanOutputs": {
            choices: [],
            usage: { prompt_tokens: 300, completion_tokens: 40, total_tokens: 340 },
          },
        },
      },
      {
        id: "L",
        parent: "A",
        name: "rewrite",
        type: "LLM",
        start: 20,
        attributes: { "llm.token_count.prompt": 20, "llm.token_count.completion": 2 },
      },
    ]);
    const { storedRows } = await ingestIntoDb(db, "tokens.jsonl", toJsonl([{ request: "q", trace }]), "strict");
    expect(storedRows.map((row) => [row.inputTokenCount, row.outputTokenCount, row.totalTokenCount])).toEqual([
      [320, 42, 362],
    ]);
  });
});
