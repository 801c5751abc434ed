import { describe, expect, it } from "vitest";
import { deepEvalTraceDict } from "@/lib/traces/deepEvalTraceDict";

const j = (value: unknown) => JSON.stringify(value);

/** MLflow 3 spans: [id, parent, name, type, start ms, attributes]. */
function trace(spans: [string, string | null, string, string, number, Record<string, unknown>][]) {
  return {
    info: {},
    data: {
      spans: spans.map(([id, parent, name, type, start, attributes]) => ({
        span_id: id,
        parent_span_id: parent,
        name,
        start_time_unix_nano: String(start * 1e6),
        end_time_unix_nano: String((start + 1) * 1e6),
        attributes: {
          "mlflow.spanType": j(type),
          ...Object.fromEntries(Object.entries(attributes).map(([k, v]) => [k, j(v)])),
        },
      })),
    },
  };
}

describe("an MLflow trace in DeepEval's nested span shape", () => {
  it("nests children in start order, with DeepEval's keys per span type and no null values", () => {
    const dict = deepEvalTraceDict(
      trace([
        [
          "root",
          null,
          "agent",
          "AGENT",
          0,
          { "mlflow.spanInputs": { input: "Plan a trip" }, "mlflow.spanOutputs": "Done" },
        ],
        [
          "r",
          "root",
          "docs",
          "RETRIEVER",
          30,
          { "mlflow.spanOutputs": [{ page_content: "Slide 1", metadata: { doc_uri: "d" } }] },
        ],
        [
          "t",
          "root",
          "flight_tool",
          "TOOL",
          10,
          { "mlflow.spanInputs": { destination: "Chicago" }, "mlflow.spanOutputs": { flights: ["101"] } },
        ],
        [
          "l",
          "root",
          "chat",
          "CHAT_MODEL",
          20,
          {
            "mlflow.llm.model": "gpt-4",
            "mlflow.chat.tokenUsage": { input_tokens: 38, output_tokens: 21 },
            "mlflow.spanOutputs": null,
          },
        ],
      ]),
    );
    expect(dict).toEqual({
      name: "agent",
      type: "agent",
      input: { input: "Plan a trip" },
      output: "Done",
      children: [
        {
          name: "flight_tool",
          type: "tool",
          input: { inputParameters: { destination: "Chicago" } },
          output: { flights: ["101"] },
          children: [],
        },
        { name: "chat", type: "llm", model: "gpt-4", inputTokenCount: 38, outputTokenCount: 21, children: [] },
        { name: "docs", type: "retriever", output: { retrievalContext: ["Slide 1"] }, children: [] },
      ],
    });
  });

  it("cuts long text in place and says so, and puts several roots under one", () => {
    const long = "x".repeat(2_500);
    const dict = deepEvalTraceDict(
      trace([
        ["a", null, "first", "CHAIN", 0, { "mlflow.spanInputs": long }],
        ["b", null, "second", "CHAIN", 5, {}],
      ]),
    );
    expect(dict?.name).toBe("trace");
    expect(dict?.children.map((child) => child.name)).toEqual(["first", "second"]);
    expect(String(dict?.children[0].input)).toMatch(/^x{2000}… \(500 more characters\)$/);
  });

  it("is null without a readable trace", () => {
    expect(deepEvalTraceDict(null)).toBeNull();
    expect(deepEvalTraceDict({ data: {} })).toBeNull();
  });
});
