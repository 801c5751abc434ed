import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { toJsonl } from "../support/evalFiles";
import { createTempDb } from "../support/tempDb";
import { ingestIntoDb } from "./ingestIntoTempDb";

const j = (value: unknown) => JSON.stringify(value);

let db: Db;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTempDb()));
afterAll(async () => cleanup());

/** An MLflow 3 trace whose spans are given as (id, parent, name, type, start ms, end ms, attributes, extra). */
function trace(
  spans: [string, string | null, string, string, number, number, Record<string, unknown>?, Record<string, unknown>?][],
) {
  return {
    info: { trace_id: "tr-1", state: "OK" },
    data: {
      spans: spans.map(([id, parent, name, type, start, end, attributes = {}, extra = {}]) => ({
        span_id: id,
        parent_span_id: parent,
        name,
        start_time_unix_nano: String((1_000 + start) * 1_000_000),
        end_time_unix_nano: String((1_000 + end) * 1_000_000),
        attributes: Object.fromEntries([
          ["mlflow.spanType", j(type)],
          ...Object.entries(attributes).map(([key, value]) => [key, j(value)]),
        ]),
        ...extra,
      })),
    },
  };
}

async function storedCalls(rowId: string) {
  return db.toolCall.findMany({ where: { rowId }, orderBy: [{ kind: "asc" }, { position: "asc" }] });
}

describe("tool calls from an upload", () => {
  it("reads TOOL spans in start order with arguments, outputs, errors and timings; the model's tools; and expected calls", async () => {
    const agentTrace = trace([
      ["A", null, "agent", "AGENT", 0, 900, { "mlflow.spanOutputs": "Done." }],
      [
        "L",
        "A",
        "chat",
        "CHAT_MODEL",
        10,
        50,
        {
          "mlflow.spanInputs": {
            messages: [{ role: "user", content: "hi" }],
            tools: [{ type: "function", function: { name: "fetch", description: "Fetch a page", parameters: {} } }],
          },
          "mlflow.chat.tools": [
            { type: "function", function: { name: "search", description: "Search", parameters: { type: "object" } } },
          ],
        },
      ],
      // Listed first, started last.
      [
        "T2",
        "A",
        "fetch",
        "TOOL",
        400,
        700,
        { "mlflow.spanInputs": { url: "u" }, "mlflow.spanOutputs": "<p>page</p>" },
      ],
      [
        "T1",
        "A",
        "search",
        "TOOL",
        100,
        300,
        { "mlflow.spanInputs": "plain text query" },
        {
          status: { code: "STATUS_CODE_ERROR", message: "boom" },
          events: [
            {
              name: "exception",
              time_unix_nano: "1",
              attributes: { "exception.type": "TimeoutError", "exception.message": "timed out" },
            },
          ],
        },
      ],
      [
        "T3",
        "A",
        "noop",
        "TOOL",
        800,
        810,
        { "mlflow.spanInputs": {} },
        { status: { code: "ERROR", message: "no route" } },
      ],
    ]);
    const { result, storedRows } = await ingestIntoDb(
      db,
      "agent.jsonl",
      toJsonl([
        {
          request: "Find it",
          trace: agentTrace,
          expected_tool_calls: [{ name: "search", arguments: { q: "x" } }, "fetch"],
        },
      ]),
      "strict",
    );
    expect(result.ok).toBe(true);
    const [row] = storedRows;
    const stored = await db.datasetRow.findUniqueOrThrow({ where: { id: row.id } });
    expect(stored).toMatchObject({
      hasToolCalls: true,
      hasExpectedToolCalls: true,
      toolCallCount: 3,
      toolCallsSource: "trace",
    });
    expect(JSON.parse(stored.availableTools ?? "[]")).toEqual([
      { name: "search", description: "Search", parameters: { type: "object" } },
    ]);
    const calls = await storedCalls(row.id);
    expect(
      calls.map((c) => [c.kind, c.position, c.name, c.arguments, c.output, c.error, c.startMs, c.durationMs, c.spanId]),
    ).toEqual([
      ["called", 0, "search", j({ input: "plain text query" }), null, "TimeoutError: timed out", 100, 200, "T1"],
      ["called", 1, "fetch", j({ url: "u" }), j("<p>page</p>"), null, 400, 300, "T2"],
      // An empty input is no arguments (MLflow's `span.inputs or None`); an error status without an exception event is still an error.
      ["called", 2, "noop", null, null, "no route", 800, 10, "T3"],
      ["expected", 0, "search", j({ q: "x" }), null, null, null, null, null],
      ["expected", 1, "fetch", null, null, null, null, null, null],
    ]);
  });

  it("reads a tool_calls column in DeepEval's spelling over the trace, and an empty expected list as none", async () => {
    const { result, storedRows } = await ingestIntoDb(
      db,
      "columns.jsonl",
      toJsonl([
        {
          request: "q",
          tool_calls: [{ name: "search", input_parameters: { q: "a" }, output: ["d1"], duration_ms: 12 }],
          expected_tool_calls: [],
        },
        { request: "q2" },
      ]),
      "strict",
    );
    expect(result.ok).toBe(true);
    const first = await db.datasetRow.findUniqueOrThrow({ where: { id: storedRows[0].id } });
    expect(first).toMatchObject({
      hasToolCalls: true,
      hasExpectedToolCalls: false,
      toolCallCount: 1,
      toolCallsSource: "column",
    });
    expect((await storedCalls(first.id)).map((c) => [c.name, c.arguments, c.output, c.durationMs])).toEqual([
      ["search", j({ q: "a" }), j(["d1"]), 12],
    ]);
    const second = await db.datasetRow.findUniqueOrThrow({ where: { id: storedRows[1].id } });
    expect(second).toMatchObject({ hasToolCalls: false, hasExpectedToolCalls: false, toolCallCount: null });
  });

  it("names the row, the column and the entry of a bad shape, and stores nothing", async () => {
    const { result, messages, added } = await ingestIntoDb(
      db,
      "bad.jsonl",
      toJsonl([
        { request: "fine", tool_calls: [{ name: "search" }] },
        { request: "no name", tool_calls: [{ name: "search" }, { arguments: { q: 1 } }] },
        { request: "not a list", expected_tool_calls: { name: "search" } },
        { request: "arguments not an object", expected_tool_calls: [{ name: "search", arguments: "q=1" }] },
      ]),
      "strict",
    );
    expect(result.ok).toBe(false);
    expect(messages).toEqual([
      "row 2, column tool_calls: item 2, name: a tool call needs a name (a string)",
      expect.stringMatching(/^row 3, column expected_tool_calls: expected an array of expected calls/),
      "row 4, column expected_tool_calls: item 1, arguments: arguments must be an object of argument names to values",
    ]);
    expect(added).toEqual({ datasets: 0, rows: 0 });
  });
});
