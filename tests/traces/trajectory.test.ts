// The drill-down's trajectory of an MLflow trace (lib/traces/trajectory.ts): every span once, in tree order,
// whatever the file's order, the parent chain's shape or the trace's MLflow version.
import { describe, expect, it } from "vitest";
import { buildTrajectory, SPAN_TEXT_LIMIT, type Trajectory } from "@/lib/traces/trajectory";

const j = (value: unknown) => JSON.stringify(value);
const MS = 1_000_000;

/** An MLflow 3 span: ids and times in OpenTelemetry's names, attribute values JSON-encoded. */
function span3(
  id: string,
  parent: string | null,
  type: string,
  startMs: number,
  endMs: number,
  extra: Record<string, unknown> = {},
) {
  const { attributes, ...rest } = extra;
  return {
    span_id: id,
    parent_span_id: parent,
    name: id,
    start_time_unix_nano: 1_700_000_000_000 * MS + startMs * MS,
    end_time_unix_nano: 1_700_000_000_000 * MS + endMs * MS,
    status: { code: "STATUS_CODE_OK" },
    events: [],
    attributes: { "mlflow.spanType": j(type), ...(attributes as Record<string, unknown> | undefined) },
    ...rest,
  };
}

const trace = (spans: unknown[]) => ({ info: { trace_id: "tr-1" }, data: { spans } });

function built(spans: unknown[]): Trajectory {
  const trajectory = buildTrajectory(trace(spans));
  if (trajectory === null) throw new Error("no trajectory");
  return trajectory;
}

const lines = (trajectory: Trajectory) => trajectory.spans.map((span) => `${"  ".repeat(span.depth)}${span.id}`);

describe("buildTrajectory", () => {
  it("draws the tree in order: a parent, then its children by start time, whatever order the file lists them in", () => {
    const trajectory = built([
      span3("search", "agent", "TOOL", 300, 500),
      span3("rerank", "retrieve", "RERANKER", 150, 180),
      span3("agent", null, "AGENT", 0, 1000),
      span3("retrieve", "agent", "RETRIEVER", 100, 200),
      span3("chat", "agent", "CHAT_MODEL", 600, 900),
      span3("embed", "retrieve", "EMBEDDING", 110, 140),
    ]);
    expect(lines(trajectory)).toEqual(["agent", "  retrieve", "    embed", "    rerank", "  search", "  chat"]);
    // Epoch nanoseconds are past 2^53, so times are exact to a microsecond, not a nanosecond.
    const micro = (ms: number | null) => (ms === null ? null : Math.round(ms * 1000) / 1000);
    expect(micro(trajectory.totalMs)).toBe(1000);
    expect(trajectory.spans.map((span) => [micro(span.startMs), micro(span.durationMs)])).toEqual([
      [0, 1000],
      [100, 100],
      [110, 30],
      [150, 30],
      [300, 200],
      [600, 300],
    ]);
    // Types counted in the order the tree shows them.
    expect(trajectory.typeCounts).toEqual([
      { type: "AGENT", count: 1 },
      { type: "RETRIEVER", count: 1 },
      { type: "EMBEDDING", count: 1 },
      { type: "RERANKER", count: 1 },
      { type: "TOOL", count: 1 },
      { type: "CHAT_MODEL", count: 1 },
    ]);
  });

  it("draws a span whose parent is not in the trace as a root, in start order with the others", () => {
    const trajectory = built([
      span3("late", "gone", "TOOL", 700, 800),
      span3("agent", null, "AGENT", 0, 500),
      span3("child", "agent", "CHAT_MODEL", 100, 200),
    ]);
    expect(lines(trajectory)).toEqual(["agent", "  child", "late"]);
    expect(trajectory.spans[2]).toMatchObject({ parentId: "gone", depth: 0 });
  });

  it("survives a cycle of parents: each span once, the cycle's spans at the top level", () => {
    const trajectory = built([
      span3("root", null, "AGENT", 0, 100),
      span3("a", "b", "CHAIN", 10, 20),
      span3("b", "a", "CHAIN", 20, 30),
      span3("c", "a", "TOOL", 25, 26),
      span3("self", "self", "TOOL", 40, 50),
    ]);
    expect(trajectory.spans.map((span) => span.id).sort()).toEqual(["a", "b", "c", "root", "self"]);
    expect(trajectory.spans[0].id).toBe("root");
    expect(trajectory.spans.slice(1).every((span) => span.depth === 0)).toBe(true);
  });

  it("keeps a parent chain thousands of spans deep without overflowing the stack", () => {
    const spans = Array.from({ length: 5000 }, (_, i) =>
      span3(`s${i}`, i === 0 ? null : `s${i - 1}`, "CHAIN", i, 10_000 - i),
    );
    const trajectory = built(spans.reverse());
    expect(trajectory.spans).toHaveLength(5000);
    expect(trajectory.spans.at(-1)).toMatchObject({ id: "s4999", depth: 4999 });
  });

  it("draws every span even when two share an id (a malformed trace loses nothing on the page)", () => {
    const trajectory = built([
      span3("agent", null, "AGENT", 0, 100),
      span3("dup", "agent", "TOOL", 10, 20),
      span3("dup", "agent", "TOOL", 30, 40),
    ]);
    expect(trajectory.spans).toHaveLength(3);
    expect(trajectory.spans.map((span) => Math.round(span.startMs ?? -1))).toEqual([0, 10, 30]);
  });

  it("reads an MLflow 2 trace: context.span_id, parent_id, start_time and status_code", () => {
    const trajectory = built([
      {
        name: "search",
        context: { span_id: "0x2", trace_id: "0xa" },
        parent_id: "0x1",
        start_time: 1_100_000_000,
        end_time: 1_400_000_000,
        status_code: "OK",
        status_message: "",
        events: [],
        attributes: { "mlflow.spanType": j("TOOL"), "mlflow.spanInputs": j({ q: "a" }) },
      },
      {
        name: "agent",
        context: { span_id: "0x1", trace_id: "0xa" },
        parent_id: null,
        start_time: 1_000_000_000,
        end_time: 1_800_000_000,
        status_code: "OK",
        events: [],
        attributes: { "mlflow.spanType": j("AGENT"), "mlflow.spanOutputs": j("The answer.") },
      },
    ]);
    expect(trajectory.spans).toMatchObject([
      { id: "0x1", name: "agent", type: "AGENT", depth: 0, startMs: 0, durationMs: 800, status: "ok" },
      { id: "0x2", name: "search", type: "TOOL", depth: 1, startMs: 100, durationMs: 300, status: "ok" },
    ]);
    expect(trajectory.totalMs).toBe(800);
    expect(trajectory.spans[0].outputs).toBe("The answer.");
    expect(trajectory.spans[1].inputs).toBe(JSON.stringify({ q: "a" }, null, 2));
  });

  it("reads an MLflow 3 trace's span_type and status without mlflow.spanType, and an unnamed, untyped span", () => {
    const trajectory = built([
      {
        span_id: "r",
        parent_span_id: null,
        name: "agent",
        start_time_unix_nano: "0",
        end_time_unix_nano: "2000000",
        span_type: "agent",
        status: { code: "OK" },
      },
      { span_id: "x", parent_span_id: "r", start_time_unix_nano: 500_000, end_time_unix_nano: 900_000 },
    ]);
    expect(trajectory.spans).toMatchObject([
      { name: "agent", type: "AGENT", status: "ok", durationMs: 2 },
      { name: "(unnamed span)", type: "UNKNOWN", status: "unset", startMs: 0.5, durationMs: 0.4 },
    ]);
  });

  it("marks errors: from an exception event (type and message), or from the error status and its message", () => {
    const trajectory = built([
      span3("agent", null, "AGENT", 0, 100),
      span3("timeout", "agent", "TOOL", 10, 20, {
        events: [
          {
            name: "exception",
            attributes: { "exception.type": "TimeoutError", "exception.message": "search timed out" },
          },
        ],
      }),
      span3("refused", "agent", "TOOL", 30, 40, { status: { code: "STATUS_CODE_ERROR", message: "HTTP 503" } }),
      span3("silent", "agent", "TOOL", 50, 60, { status: { code: "ERROR" } }),
    ]);
    expect(trajectory.spans.map((span) => [span.id, span.status, span.error])).toEqual([
      ["agent", "ok", null],
      ["timeout", "error", "TimeoutError: search timed out"],
      ["refused", "error", "HTTP 503"],
      ["silent", "error", "error"],
    ]);
  });

  it("gives an LLM or chat model span's tokens, and none for other spans", () => {
    const usage = j({ input_tokens: 100, output_tokens: 20, total_tokens: 120 });
    const trajectory = built([
      span3("agent", null, "AGENT", 0, 100, { attributes: { "mlflow.chat.tokenUsage": usage } }),
      span3("chat", "agent", "CHAT_MODEL", 10, 20, { attributes: { "mlflow.chat.tokenUsage": usage } }),
      span3("llm", "agent", "LLM", 30, 40, { attributes: { "mlflow.chat.tokenUsage": { input_tokens: 7 } } }),
      span3("bare", "agent", "LLM", 50, 60),
    ]);
    expect(trajectory.spans.map((span) => span.tokens)).toEqual([
      null,
      { input: 100, output: 20 },
      { input: 7, output: 0 },
      null,
    ]);
  });

  it("cuts inputs and outputs past the limit, saying how much was left out", () => {
    const long = "x".repeat(SPAN_TEXT_LIMIT + 1234);
    const exact = "y".repeat(SPAN_TEXT_LIMIT);
    const trajectory = built([
      span3("tool", null, "TOOL", 0, 10, {
        attributes: { "mlflow.spanInputs": j(long), "mlflow.spanOutputs": j(exact) },
      }),
    ]);
    const [tool] = trajectory.spans;
    expect(tool.inputs?.startsWith("x".repeat(SPAN_TEXT_LIMIT))).toBe(true);
    expect(tool.inputs?.slice(SPAN_TEXT_LIMIT)).toBe("\n… (1,234 more characters)");
    expect(tool.outputs).toBe(exact);
  });

  it("is null without a trace, for a trace it cannot read, and for a trace without spans", () => {
    expect(buildTrajectory(null)).toBeNull();
    expect(buildTrajectory(undefined)).toBeNull();
    expect(buildTrajectory("not a trace")).toBeNull();
    expect(buildTrajectory({ info: {}, data: {} })).toBeNull();
    expect(buildTrajectory(trace([]))).toBeNull();
    expect(buildTrajectory(trace(["not a span"]))).toBeNull();
  });

  it("has no total time when no span gives its times", () => {
    const trajectory = built([{ span_id: "a", name: "agent", attributes: { "mlflow.spanType": j("AGENT") } }]);
    expect(trajectory.totalMs).toBeNull();
    expect(trajectory.spans[0]).toMatchObject({ startMs: null, durationMs: null });
  });
});
