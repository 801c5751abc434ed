import type { JudgeRowData } from "@/lib/db/runs/runQueries";
import type { ExpectedToolCall, ToolCall } from "@/lib/contract/toolCalls";
import { decodeFacts, decodeMessages } from "@/lib/db/datasets/rowView";
import type { ContextItem } from "@/lib/contract/normalizedRow";
import type { JudgeInput } from "@/lib/judges/types";
import type { AgentFacts } from "@/lib/metrics/deterministicMetrics";

/** What the judges see of a stored row; a run that generated responses judges its own response. */
export function judgeInputFromRow(row: JudgeRowData, generates: boolean): JudgeInput {
  return {
    messages: decodeMessages(row.messages),
    request: row.requestText,
    response: generates ? (row.generation?.response ?? null) : row.response,
    expectedResponse: row.expectedResponse,
    expectedFacts: decodeFacts(row.expectedFacts),
    retrievedContext: chunksOf(row, "retrieved"),
    expectedContext: chunksOf(row, "expected").flatMap((chunk) =>
      chunk.content !== null && chunk.content.trim() !== "" ? [chunk.content] : [],
    ),
  };
}

export function chunksOf(row: JudgeRowData, kind: "retrieved" | "expected"): ContextItem[] {
  return row.chunks
    .filter((chunk) => chunk.kind === kind)
    .map((chunk) => ({ content: chunk.content, docUri: chunk.docUri }));
}

/**
 * The row's tool calls as the metrics read them: null for what the row does not carry (no trace and
 * no tool_calls column; no expected_tool_calls), else the calls in order.
 */
export function toolCallsOf(row: JudgeRowData): { called: ToolCall[] | null; expected: ExpectedToolCall[] | null } {
  const ofKind = (kind: string) => row.toolCalls.filter((call) => call.kind === kind);
  return {
    called: row.hasToolCalls
      ? ofKind("called").map((call) => ({
          name: call.name,
          arguments: jsonObject(call.arguments),
          output: jsonValue(call.output),
          error: call.error,
          startMs: call.startMs,
          durationMs: call.durationMs,
          spanId: call.spanId,
        }))
      : null,
    expected: row.hasExpectedToolCalls
      ? ofKind("expected").map((call) => ({
          name: call.name,
          arguments: jsonObject(call.arguments),
          output: jsonValue(call.output),
        }))
      : null,
  };
}

/** Stored JSON text back to a value (the upload wrote it with JSON.stringify). */
function jsonValue(text: string | null): unknown {
  if (text === null) return null;
  const value: unknown = JSON.parse(text);
  return value;
}

function jsonObject(text: string | null): Record<string, unknown> | null {
  const value = jsonValue(text);
  return isObject(value) ? value : null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** agent/* facts: the run's generation call when it generated, else the trace. */
export function agentFactsOf(row: JudgeRowData, generates: boolean): AgentFacts {
  if (generates) {
    const g = row.generation;
    const input = g?.inputTokenCount ?? null;
    const output = g?.outputTokenCount ?? null;
    return {
      inputTokenCount: input,
      outputTokenCount: output,
      totalTokenCount: input !== null && output !== null ? input + output : null,
      latencySeconds: g?.latencySeconds ?? null,
    };
  }
  return {
    totalTokenCount: row.totalTokenCount,
    inputTokenCount: row.inputTokenCount,
    outputTokenCount: row.outputTokenCount,
    latencySeconds: row.latencySeconds,
  };
}
