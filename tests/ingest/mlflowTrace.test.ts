import { describe, expect, it } from "vitest";
import { extractTraceFacts, TraceFormatError } from "@/lib/ingest/mlflowTrace";

const j = (value: unknown) => JSON.stringify(value);

/** MLflow 2.x Trace.to_json(): span times in ns, attribute values JSON-encoded. */
const mlflow2Trace = {
  info: { request_id: "tr-1", execution_time_ms: 2500, status: "OK" },
  data: {
    request: j({ messages: [{ role: "user", content: "q" }] }),
    response: j({ choices: [{ message: { content: "from data.response" } }] }),
    spans: [
      {
        name: "agent",
        context: { span_id: "0x1" },
        parent_id: null,
        start_time: 1_000_000_000,
        end_time: 3_500_000_000,
        attributes: {
          "mlflow.spanType": j("AGENT"),
          "mlflow.spanOutputs": j({ choices: [{ message: { role: "assistant", content: "The answer." } }] }),
        },
      },
      {
        name: "retrieve",
        context: { span_id: "0x2" },
        parent_id: "0x1",
        start_time: 1_100_000_000,
        end_time: 1_300_000_000,
        attributes: {
          "mlflow.spanType": j("RETRIEVER"),
          "mlflow.spanOutputs": j([{ page_content: "early", metadata: { doc_uri: "doc://early" } }]),
        },
      },
      {
        name: "rerank",
        context: { span_id: "0x3" },
        parent_id: "0x1",
        start_time: 1_400_000_000,
        end_time: 1_500_000_000,
        attributes: {
          "mlflow.spanType": j("RETRIEVER"),
          "mlflow.spanOutputs": j([
            { page_content: "late A", metadata: { doc_uri: "doc://a" } },
            { page_content: "late B", metadata: { doc_uri: "doc://b" } },
          ]),
        },
      },
      {
        name: "rewrite",
        context: { span_id: "0x4" },
        parent_id: "0x1",
        start_time: 1_010_000_000,
        end_time: 1_090_000_000,
        attributes: {
          "mlflow.spanType": j("LLM"),
          "mlflow.spanOutputs": j({ usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 } }),
        },
      },
      {
        name: "answer",
        context: { span_id: "0x5" },
        parent_id: "0x1",
        start_time: 1_600_000_000,
        end_time: 3_400_000_000,
        attributes: {
          "mlflow.spanType": j("CHAT_MODEL"),
          "mlflow.spanOutputs": j({
            choices: [{ message: { content: "The answer." } }],
            usage: { prompt_tokens: 900, completion_tokens: 90, total_tokens: 990 },
          }),
        },
      },
    ],
  },
};

/** MLflow 3.x: *_unix_nano strings, parent_span_id, token usage as an attribute. */
const mlflow3Trace = {
  info: { trace_id: "tr-2", execution_duration: "1.75s", state: "OK" },
  data: {
    spans: [
      {
        span_id: "AAA=",
        parent_span_id: null,
        name: "agent",
        start_time_unix_nano: "1000000000",
        end_time_unix_nano: "2750000000",
        attributes: { "mlflow.spanType": j("AGENT"), "mlflow.spanOutputs": j("Plain answer text.") },
      },
      {
        span_id: "BBB=",
        parent_span_id: "AAA=",
        name: "search",
        start_time_unix_nano: "1100000000",
        end_time_unix_nano: "1200000000",
        attributes: {
          "mlflow.spanType": j("RETRIEVER"),
          "mlflow.spanOutputs": j([{ page_content: "chunk", metadata: { doc_uri: "doc://x", chunk_id: "1" } }]),
        },
      },
      {
        span_id: "CCC=",
        parent_span_id: "AAA=",
        name: "llm",
        start_time_unix_nano: "1300000000",
        end_time_unix_nano: "2700000000",
        attributes: {
          "mlflow.spanType": j("CHAT_MODEL"),
          "mlflow.chat.tokenUsage": j({ input_tokens: 300, output_tokens: 40, total_tokens: 340 }),
        },
      },
    ],
  },
};

describe("extractTraceFacts", () => {
  it("reads an MLflow 2 trace: root output, last retriever, summed LLM tokens, root latency", () => {
    expect(extractTraceFacts(mlflow2Trace)).toEqual({
      response: "The answer.",
      retrievedContext: [
        { content: "late A", docUri: "doc://a" },
        { content: "late B", docUri: "doc://b" },
      ],
      tokens: { input: 1000, output: 100, total: 1100 },
      latencySeconds: 2.5,
      // No TOOL span: the agent called no tool; no model span declared any.
      toolCalls: [],
      availableTools: [],
    });
  });

  it("reads an MLflow 3 trace", () => {
    expect(extractTraceFacts(mlflow3Trace)).toEqual({
      response: "Plain answer text.",
      retrievedContext: [{ content: "chunk", docUri: "doc://x" }],
      tokens: { input: 300, output: 40, total: 340 },
      latencySeconds: 1.75,
      // No TOOL span: the agent called no tool; no model span declared any.
      toolCalls: [],
      availableTools: [],
    });
  });

  it("falls back to data.response and info timings when spans lack them", () => {
    const trace = {
      info: { execution_time_ms: 800 },
      data: {
        response: j({ choices: [{ message: { content: "fallback" } }] }),
        spans: [{ name: "root", attributes: {} }],
      },
    };
    expect(extractTraceFacts(trace)).toEqual({
      response: "fallback",
      retrievedContext: null,
      tokens: null,
      latencySeconds: 0.8,
      // No TOOL span: the agent called no tool; no model span declared any.
      toolCalls: [],
      availableTools: [],
    });
  });

  it("does not count an LLM span twice when it has both usage forms", () => {
    const span = {
      span_id: "1",
      parent_span_id: null,
      attributes: {
        "mlflow.spanType": j("LLM"),
        "mlflow.chat.tokenUsage": j({ input_tokens: 5, output_tokens: 1 }),
        "mlflow.spanOutputs": j({ usage: { prompt_tokens: 5, completion_tokens: 1 } }),
      },
    };
    expect(extractTraceFacts({ info: {}, data: { spans: [span] } }).tokens).toEqual({ input: 5, output: 1, total: 6 });
  });

  it.each([
    [
      "a ResponsesAgent response in a one-item predict list",
      [{ output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "Listed." }] }] }],
      "Listed.",
    ],
    [
      "a ResponsesAgent response that only calls tools",
      { output: [{ type: "function_call", call_id: "c", name: "f", arguments: "{}" }] },
      null,
    ],
    [
      "a ChatCompletion with content parts",
      {
        choices: [
          {
            message: {
              role: "assistant",
              content: [
                { type: "text", text: "Part one." },
                { type: "text", text: "Part two." },
              ],
            },
          },
        ],
      },
      "Part one.\nPart two.",
    ],
    [
      "a ChatAgent message list",
      {
        messages: [
          { role: "user", content: "q" },
          { role: "assistant", content: "Last." },
        ],
      },
      "Last.",
    ],
  ])("reads the response from %s", (_label, outputs, expected) => {
    const span = {
      span_id: "1",
      parent_span_id: null,
      attributes: { "mlflow.spanType": j("AGENT"), "mlflow.spanOutputs": j(outputs) },
    };
    expect(extractTraceFacts({ info: {}, data: { spans: [span] } }).response).toBe(expected);
  });

  it("counts no tokens from a TOOL span, even with mlflow.chat.tokenUsage", () => {
    const span = {
      span_id: "1",
      parent_span_id: null,
      attributes: { "mlflow.spanType": j("TOOL"), "mlflow.chat.tokenUsage": j({ input_tokens: 5, output_tokens: 1 }) },
    };
    expect(extractTraceFacts({ info: {}, data: { spans: [span] } }).tokens).toBeNull();
  });

  it.each([
    ["a string", "not a trace"],
    ["an object without data.spans", { info: {} }],
    ["a span that is not an object", { data: { spans: [1] } }],
  ])("rejects %s with a TraceFormatError", (_label, trace) => {
    expect(() => extractTraceFacts(trace)).toThrow(TraceFormatError);
  });
});
