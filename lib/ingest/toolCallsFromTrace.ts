import type { AvailableTool, ToolCall } from "@/lib/contract/toolCalls";
import { decodeAttribute, isRecord, spanError, spanInputs, spanOutputs, type TraceSpan } from "./traceSpans";

/**
 * What an agent did with tools, read from its trace as MLflow's scorers read it
 * (`mlflow/genai/utils/trace_utils.py`, `extract_tools_called_from_trace`): every TOOL span, in
 * start order; the name is the span's name, the arguments its inputs, the output its outputs, and
 * the error "<exception.type>: <exception.message>" from its `exception` event. Like MLflow, the
 * `tool_calls` a chat model asked for (CHAT_MODEL outputs) are not read as calls: a call is what
 * ran. Two additions, said in docs/agents.md: a span with an error status and no exception event
 * is an error too (its status message), and inputs that are not an object (a bare string) are
 * kept as `{"input": …}` so they can still be compared and shown.
 */
export function readToolCalls(spans: readonly TraceSpan[]): ToolCall[] {
  const traceStart = spans.reduce(
    (first, span) => (span.start === null ? first : Math.min(first, span.start)),
    Infinity,
  );
  return spans
    .filter((span) => span.type === "TOOL")
    .map((span, order) => ({ span, order }))
    .sort((a, b) => (a.span.start ?? 0) - (b.span.start ?? 0) || a.order - b.order)
    .map(({ span }) => ({
      name: span.name ?? "(unnamed tool)",
      arguments: argumentsOf(spanInputs(span)),
      output: pythonOr(spanOutputs(span)),
      error: spanError(span, "the tool span ended with an error status"),
      startMs: span.start !== null && Number.isFinite(traceStart) ? (span.start - traceStart) / 1e6 : null,
      durationMs:
        span.start !== null && span.end !== null && span.end >= span.start ? (span.end - span.start) / 1e6 : null,
      spanId: span.id,
    }));
}

/**
 * The tools offered to the agent's model: the `mlflow.chat.tools` attribute, else `inputs.tools`, of
 * LLM and CHAT_MODEL spans, in OpenAI's function shape, each name once (MLflow's
 * `extract_available_tools_from_trace`; where it finds none MLflow asks an LLM to guess them,
 * Assay leaves the list empty).
 */
export function readAvailableTools(spans: readonly TraceSpan[]): AvailableTool[] {
  const byName = new Map<string, AvailableTool>();
  for (const span of spans) {
    if (span.type !== "LLM" && span.type !== "CHAT_MODEL") continue;
    const attribute = decodeAttribute(
      span.attributes["mlflow.chat.tools"],
      `data.spans[${span.index}] attribute mlflow.chat.tools`,
    );
    const inputs = spanInputs(span);
    const declared = Array.isArray(attribute) ? attribute : isRecord(inputs) ? inputs.tools : null;
    if (!Array.isArray(declared)) continue;
    for (const entry of declared) {
      const tool = toolOf(entry);
      if (tool && !byName.has(tool.name)) byName.set(tool.name, tool);
    }
  }
  return [...byName.values()];
}

function toolOf(entry: unknown): AvailableTool | null {
  if (!isRecord(entry)) return null;
  const fn = isRecord(entry.function) ? entry.function : entry;
  if (typeof fn.name !== "string" || fn.name === "") return null;
  return {
    name: fn.name,
    description: typeof fn.description === "string" ? fn.description : null,
    parameters: fn.parameters ?? null,
  };
}

/** MLflow's `span.inputs or None`: an empty object is no arguments. */
function argumentsOf(inputs: unknown): Record<string, unknown> | null {
  const value = pythonOr(inputs);
  if (value === null) return null;
  return isRecord(value) ? value : { input: value };
}

/** Python's `x or None`: empty strings, lists and objects, 0 and false read as none. */
function pythonOr(value: unknown): unknown {
  if (value === undefined || value === null || value === "" || value === 0 || value === false) return null;
  if (Array.isArray(value) && value.length === 0) return null;
  if (isRecord(value) && Object.keys(value).length === 0) return null;
  return value;
}
