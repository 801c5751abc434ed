import type { JudgeRowData } from "@/lib/db/runs/runQueries";
import { decodeStoredToolCalls, type ExpectedToolCall, type ToolCall } from "@/lib/contract/toolCalls";
import { decodeFacts, decodeMessages } from "@/lib/db/datasets/rowView";
import type { ContextItem } from "@/lib/contract/normalizedRow";
import type { AgentInput, JudgeInput } from "@/lib/judges/types";
import { decodeAvailableTools } from "@/lib/contract/toolCalls";
import { deepEvalTraceDict } from "@/lib/traces/deepEvalTraceDict";
import { traceInfoOf } from "@/lib/ingest/traceSession";
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
    ...(row.hasToolCalls || row.hasExpectedToolCalls || row.trace !== null
      ? { agent: agentInputOf(row, generates) }
      : {}),
    ...(row.conversation && !generates
      ? { conversation: row.conversation.map((turn) => ({ role: turn.role, content: turn.content })) }
      : {}),
  };
}

/** A generated response made no tool calls: the uploaded ones (and the trace) belong to another response. */
function agentInputOf(row: JudgeRowData, generates: boolean): AgentInput {
  const { called, expected } = toolCallsOf(row);
  const trace = generates || row.trace === null ? null : parseJson(row.trace);
  return {
    toolCalls: generates ? null : called,
    expectedToolCalls: expected,
    availableTools: generates ? [] : decodeAvailableTools(row.availableTools),
    traceTree: trace === null ? null : deepEvalTraceDict(trace),
    ...(trace === null ? {} : { traceInfo: traceInfoOf(trace) }),
  };
}

function parseJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  return value;
}

export function chunksOf(row: JudgeRowData, kind: "retrieved" | "expected"): ContextItem[] {
  return row.chunks
    .filter((chunk) => chunk.kind === kind)
    .map((chunk) => ({ content: chunk.content, docUri: chunk.docUri }));
}

/** The row's tool calls as the metrics read them (lib/contract/toolCalls.ts). */
export function toolCallsOf(row: JudgeRowData): { called: ToolCall[] | null; expected: ExpectedToolCall[] | null } {
  return decodeStoredToolCalls(row.toolCalls, row);
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
