import { z } from "zod";

/**
 * An agent's tool calls and the calls a row expects, as every layer reads them.
 *
 * Actual calls come from the MLflow trace's TOOL spans, in start order (MLflow's
 * `extract_tools_called_from_trace`: name = the span's name, arguments = its inputs, outputs = its
 * outputs, the exception event as "<type>: <message>"), or from a row's own `tool_calls` column
 * (DeepEval's `tools_called`: `input_parameters` and `output` read as `arguments` and `output`).
 * Expected calls are MLflow's `expected_tool_calls` expectation (`{name, arguments?}`); DeepEval's
 * `expected_tools` with `input_parameters` read as the same.
 */
export type ToolCall = {
  name: string;
  /** The arguments the agent passed (a TOOL span's inputs), null when it passed none. */
  arguments: Record<string, unknown> | null;
  /** What the tool returned (the span's outputs), null when not recorded. */
  output: unknown;
  /** "<exception.type>: <exception.message>" from the span's exception event (or its error status), null when none. */
  error: string | null;
  /** Milliseconds from the trace's first span to this call's start, and the call's duration; null without timings. */
  startMs: number | null;
  durationMs: number | null;
  /** The TOOL span's id in the trace, null for a tool_calls column. */
  spanId: string | null;
};

export type ExpectedToolCall = {
  name: string;
  /** null: any arguments (MLflow compares names only when an expected call has none). */
  arguments: Record<string, unknown> | null;
  /** DeepEval's expected output, compared only when a run asks for it; null when not given. */
  output: unknown;
};

/** A tool the agent was offered (OpenAI's function shape, from the trace's LLM spans' `tools`). */
export type AvailableTool = { name: string; description: string | null; parameters: unknown };

/** DatasetRow.availableTools as the upload stored it. */
const availableToolsSchema = z.array(
  z.object({ name: z.string(), description: z.string().nullable(), parameters: z.unknown() }),
);

/**
 * The tools a row's model was offered (DatasetRow.availableTools, JSON text the upload wrote) back as values;
 * none when the row has none or the text no longer reads as that list (a page shows less, not an error).
 */
export function decodeAvailableTools(stored: string | null): AvailableTool[] {
  if (stored === null) return [];
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return [];
  }
  const parsed = availableToolsSchema.safeParse(value);
  return parsed.success ? parsed.data.map((tool) => ({ ...tool, parameters: tool.parameters ?? null })) : [];
}

/** A ToolCall row as the store keeps it: called then expected, each in order; arguments and output as JSON text. */
export type StoredToolCall = {
  kind: string;
  position: number;
  name: string;
  arguments: string | null;
  output: string | null;
  error: string | null;
  startMs: number | null;
  durationMs: number | null;
  spanId: string | null;
};

/**
 * A row's stored calls back as the metrics and pages read them: null for what the row does not carry (no trace
 * and no tool_calls column; no expected_tool_calls), else the calls in order.
 */
export function decodeStoredToolCalls(
  stored: readonly StoredToolCall[],
  carries: { hasToolCalls: boolean; hasExpectedToolCalls: boolean },
): { called: ToolCall[] | null; expected: ExpectedToolCall[] | null } {
  const ofKind = (kind: string) => stored.filter((call) => call.kind === kind);
  return {
    called: carries.hasToolCalls
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
    expected: carries.hasExpectedToolCalls
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
  return typeof value === "object" && value !== null && !Array.isArray(value) ? { ...value } : null;
}

const argumentsSchema = z
  .record(z.string(), z.unknown(), { error: "arguments must be an object of argument names to values" })
  .nullable()
  .optional();
const nameSchema = (what: string) =>
  z
    .string({ error: `${what} needs a name (a string)` })
    .trim()
    .min(1, `${what} needs a name`);

/** One entry of a `tool_calls` column: Assay's names, or DeepEval's ToolCall fields (either spelling). */
export const toolCallEntrySchema = z
  .object(
    {
      name: nameSchema("a tool call"),
      arguments: argumentsSchema,
      input_parameters: argumentsSchema,
      inputParameters: argumentsSchema,
      output: z.unknown().optional(),
      result: z.unknown().optional(),
      error: z.string().nullable().optional(),
      duration_ms: z.number().nonnegative().nullable().optional(),
    },
    { error: 'each tool call must be an object {"name": ..., "arguments": {...}}' },
  )
  .loose();

/**
 * One entry of an `expected_tool_calls` column: MLflow's `{name, arguments?}`, DeepEval's `input_parameters`, or
 * a bare name (read as `{name}`, so a bad entry's message names its field rather than "invalid input").
 */
export const expectedToolCallEntrySchema = z.preprocess(
  (entry) => (typeof entry === "string" ? { name: entry } : entry),
  z
    .object(
      {
        name: nameSchema("an expected tool call"),
        arguments: argumentsSchema,
        input_parameters: argumentsSchema,
        inputParameters: argumentsSchema,
        output: z.unknown().optional(),
      },
      { error: 'each expected call must be an object {"name": ..., "arguments": {...}} or a tool name' },
    )
    .loose(),
);

export function toToolCall(entry: z.output<typeof toolCallEntrySchema>): ToolCall {
  return {
    name: entry.name,
    arguments: entry.arguments ?? entry.input_parameters ?? entry.inputParameters ?? null,
    output: entry.output ?? entry.result ?? null,
    error: entry.error ?? null,
    startMs: null,
    durationMs: entry.duration_ms ?? null,
    spanId: null,
  };
}

export function toExpectedToolCall(entry: z.output<typeof expectedToolCallEntrySchema>): ExpectedToolCall {
  return {
    name: entry.name,
    arguments: entry.arguments ?? entry.input_parameters ?? entry.inputParameters ?? null,
    output: entry.output ?? null,
  };
}
