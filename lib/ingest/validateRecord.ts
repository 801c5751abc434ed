import type { z } from "zod";
import {
  contextArraySchema,
  expectedFactsSchema,
  expectedToolCallsSchema,
  requestIdSchema,
  textColumnSchema,
  toContextItems,
  toolCallsSchema,
} from "./columnSchemas";
import { toExpectedToolCall, toToolCall } from "@/lib/contract/toolCalls";
import type { RowIssue } from "./errors";
import { measureJsonValue, tooDeepMessage } from "./jsonShape";
import { parseHumanLabels } from "./humanLabels";
import { formatBytes, type IngestLimits } from "./limits";
import { extractTraceFacts, TraceFormatError, type TraceFacts } from "./mlflowTrace";
import { describeType, firstIssue, normalizeRequest } from "./normalizeRequest";
import { SpillingRequestIds } from "./spillingRequestIds";
import { readTraceSession } from "./traceSession";
import { INPUT_COLUMNS, type InputColumn, type NormalizedRow } from "@/lib/contract/normalizedRow";
import { newUnknownColumns, noteUnknownColumns, type UnknownColumns } from "./unknownColumns";

/**
 * State that spans rows: request_id uniqueness and the unknown columns seen, both bounded in memory
 * (spillingRequestIds.ts, unknownColumns.ts). The upload closes it when it ends.
 */
export type ValidationState = { requestIds: SpillingRequestIds; unknownColumns: UnknownColumns };

export function newValidationState(inMemoryRequestIds?: number): ValidationState {
  return { requestIds: new SpillingRequestIds(inMemoryRequestIds), unknownColumns: newUnknownColumns() };
}

/** A row without a request. When no row has one, the upload says so once for the file (ingestUpload.ts). */
export const REQUEST_REQUIRED = "request is required";

type RecordInput = { row: number; line: number; format: "json" | "csv"; value: unknown };
type Result = { row: NormalizedRow | null; issues: RowIssue[] };

/** CSV cells that hold JSON; the other columns stay text. */
const JSON_CELL_COLUMNS = new Set<InputColumn>([
  "expected_facts",
  "retrieved_context",
  "expected_retrieved_context",
  "trace",
  "tool_calls",
  "expected_tool_calls",
]);

/** Validates one record against the Agent Evaluation input schema and normalises it. Every problem in the row is reported. */
export function validateRecord(record: RecordInput, state: ValidationState, limits: IngestLimits): Result {
  const issues: RowIssue[] = [];
  const issue = (column: string | undefined, message: string) =>
    issues.push({ row: record.row, line: record.line, ...(column ? { column } : {}), message });

  const value = record.value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    issue(undefined, `expected an object with columns such as request and response, got ${describeType(value)}`);
    return { row: null, issues };
  }
  noteUnknownColumns(state.unknownColumns, value);

  const cells: Partial<Record<InputColumn, unknown>> = {};
  const rejected = new Set<InputColumn>(); // present, but already reported
  for (const column of INPUT_COLUMNS) {
    let cell = (value as Record<string, unknown>)[column];
    if (cell === undefined || cell === null || cell === "") continue;
    if (typeof cell === "string" && cell.length > limits.maxCellBytes) {
      issue(
        column,
        `the cell is ${formatBytes(cell.length)}, over the ${formatBytes(limits.maxCellBytes)} limit for one cell`,
      );
      rejected.add(column);
      continue;
    }
    if (record.format === "csv" && typeof cell === "string") {
      const decoded = decodeCsvCell(column, cell);
      if ("error" in decoded) {
        issue(column, decoded.error);
        rejected.add(column);
        continue;
      }
      cell = decoded.value;
    }
    // Before anything recursive (zod, storing, rendering) sees the value.
    const shape = measureJsonValue(cell);
    if (shape.tooDeep) {
      issue(column, tooDeepMessage());
      rejected.add(column);
      continue;
    }
    // Nested strings (a chunk's content, a message) obey the cell limit too.
    if (typeof cell !== "string" && shape.longestString > limits.maxCellBytes) {
      issue(
        column,
        `a text in this cell is ${formatBytes(shape.longestString)}, over the ${formatBytes(limits.maxCellBytes)} limit for one cell`,
      );
    }
    cells[column] = cell;
  }

  const request = cells.request === undefined ? { error: REQUEST_REQUIRED } : normalizeRequest(cells.request);
  if ("error" in request && !rejected.has("request")) issue("request", request.error);

  const requestId = parseColumn(requestIdSchema, cells.request_id, "request_id", issue);
  const response = parseColumn(textColumnSchema, cells.response, "response", issue);
  const expectedResponse = parseColumn(textColumnSchema, cells.expected_response, "expected_response", issue);
  const expectedFacts = parseColumn(expectedFactsSchema, cells.expected_facts, "expected_facts", issue);
  const retrieved = parseColumn(contextArraySchema, cells.retrieved_context, "retrieved_context", issue);
  const expectedRetrieved = parseColumn(
    contextArraySchema,
    cells.expected_retrieved_context,
    "expected_retrieved_context",
    issue,
  );
  const toolCalls = parseColumn(toolCallsSchema, cells.tool_calls, "tool_calls", issue);
  const expectedToolCalls = parseColumn(
    expectedToolCallsSchema,
    cells.expected_tool_calls,
    "expected_tool_calls",
    issue,
  );
  const sessionColumn = parseColumn(requestIdSchema, cells.session_id, "session_id", issue);
  if (cells.expected_facts !== undefined && cells.expected_response !== undefined) {
    issue("expected_facts", "expected_facts and expected_response are both set; keep one");
  }

  let trace: unknown = null;
  let traceFacts: TraceFacts | null = null;
  if (cells.trace !== undefined) {
    const parsed = typeof cells.trace === "string" ? parseTraceText(cells.trace) : { value: cells.trace };
    if ("error" in parsed) {
      issue("trace", parsed.error);
    } else {
      try {
        trace = parsed.value;
        traceFacts = extractTraceFacts(trace);
      } catch (error) {
        issue("trace", error instanceof TraceFormatError ? error.message : "the trace could not be read");
      }
    }
  }

  const finalId = requestId ?? `auto-${record.row}`;
  if (requestId === "") issue("request_id", "request_id is blank");
  const firstRow = state.requestIds.get(finalId);
  if (firstRow !== undefined) issue("request_id", `request_id "${finalId}" is also used by row ${firstRow}`);

  const labels = parseHumanLabels(
    cells.human_labels,
    record,
    retrieved?.length ?? traceFacts?.retrievedContext?.length ?? null,
  );
  issues.push(...labels.issues);

  if (issues.length > 0 || "error" in request) return { row: null, issues };
  state.requestIds.set(finalId, record.row);

  const traceResponse = traceFacts?.response ?? null;
  const traceContext = traceFacts?.retrievedContext ?? null;
  const traceToolCalls = traceFacts?.toolCalls ?? null;
  const traceSession = trace === null ? null : readTraceSession(trace);
  return {
    issues,
    row: {
      rowNumber: record.row,
      requestId: finalId,
      requestRaw: cells.request,
      requestFormat: request.format,
      messages: request.messages,
      requestText: request.text,
      response: response ?? traceResponse,
      responseSource: response !== undefined ? "column" : traceResponse !== null ? "trace" : null,
      // A CSV cannot tell an empty cell from a missing one; JSON's "" is a response that says nothing.
      ...(record.format === "json" && (value as Record<string, unknown>).response === "" && traceResponse === null
        ? { emptyResponse: true as const }
        : {}),
      expectedResponse: expectedResponse ?? null,
      expectedFacts: expectedFacts ?? null,
      retrievedContext: retrieved ? toContextItems(retrieved) : traceContext,
      retrievedContextSource: retrieved ? "column" : traceContext ? "trace" : null,
      expectedRetrievedContext: expectedRetrieved ? toContextItems(expectedRetrieved) : null,
      trace,
      tokens: traceFacts?.tokens ?? null,
      latencySeconds: traceFacts?.latencySeconds ?? null,
      humanLabels: labels.entries,
      toolCalls: toolCalls ? toolCalls.map(toToolCall) : traceToolCalls,
      toolCallsSource: toolCalls ? "column" : traceToolCalls ? "trace" : null,
      expectedToolCalls:
        expectedToolCalls && expectedToolCalls.length > 0 ? expectedToolCalls.map(toExpectedToolCall) : null,
      availableTools: traceFacts?.availableTools ?? [],
      sessionId: sessionColumn || traceSession?.sessionId || null,
      sessionTime: traceSession?.requestTimeMs ?? null,
    },
  };
}

function parseColumn<T extends z.ZodType>(
  schema: T,
  cell: unknown,
  column: InputColumn,
  issue: (column: string, message: string) => void,
): z.output<T> | undefined {
  if (cell === undefined) return undefined;
  const parsed = schema.safeParse(cell);
  if (parsed.success) return parsed.data;
  issue(column, firstIssue(parsed.error, column));
  return undefined;
}

/** A CSV cell is text; structured columns carry JSON, and a request may be a JSON object. */
function decodeCsvCell(column: InputColumn, cell: string): { value: unknown } | { error: string } {
  const trimmed = cell.trim();
  const looksJson = trimmed.startsWith("{") || trimmed.startsWith("[");
  if (!JSON_CELL_COLUMNS.has(column) && !(column === "request" && trimmed.startsWith("{"))) return { value: cell };
  if (!looksJson) {
    return {
      error: column === "trace" ? "expected an MLflow trace as a JSON object" : "expected a JSON array in this cell",
    };
  }
  try {
    return { value: JSON.parse(trimmed) };
  } catch {
    return { error: "the cell looks like JSON but does not parse" };
  }
}

/** In a JSON file a trace may also be given as a JSON-encoded string (as MLflow's Trace.to_json() returns it). */
function parseTraceText(text: string): { value: unknown } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: "the trace is not valid JSON" };
  }
  return measureJsonValue(value).tooDeep ? { error: tooDeepMessage() } : { value };
}
