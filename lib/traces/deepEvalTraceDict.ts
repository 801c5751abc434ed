import {
  readSpansOrNull,
  spanInputs,
  spanOutputs,
  spanTree,
  orNullOnTraceError,
  spanError,
  type TraceSpan,
} from "@/lib/ingest/traceSpans";
import { decodeAttribute, isRecord } from "@/lib/ingest/traceSpans";

/**
 * An MLflow trace in the nested shape DeepEval's trace metrics read (its `_trace_dict`, built by
 * `TraceManager.create_nested_spans_dict`): per span `name`, `type` (agent, tool, llm, retriever or
 * custom), `input`, `output` and `children`, a tool's arguments under `input.inputParameters`, an LLM
 * span's `model` and token counts, a retriever's chunks under `output.retrievalContext`, and no
 * `null` values. What the task completion and step efficiency judges are shown.
 *
 * Long values are cut (each text at MAX_TEXT characters, each span's children at MAX_CHILDREN) so a
 * 200-span trace stays inside a model's context; a cut says so in place.
 */
export type DeepEvalSpan = { [key: string]: unknown; children: DeepEvalSpan[] };

const MAX_TEXT = 2_000;
const MAX_CHILDREN = 60;
const MAX_DEPTH = 24;

const TYPES: Record<string, string> = {
  AGENT: "agent",
  TOOL: "tool",
  LLM: "llm",
  CHAT_MODEL: "llm",
  RETRIEVER: "retriever",
};

/** The root span (or a synthetic root over several) as DeepEval's nested dict; null without a readable trace. */
export function deepEvalTraceDict(trace: unknown): DeepEvalSpan | null {
  const spans = readSpansOrNull(trace);
  if (spans === null) return null;
  const { roots, childrenOf } = spanTree(spans);
  const visited = new Set<TraceSpan>();
  const build = (span: TraceSpan, depth: number): DeepEvalSpan => {
    visited.add(span);
    const kids = depth >= MAX_DEPTH ? [] : childrenOf(span);
    const shown = kids.filter((kid) => !visited.has(kid)).slice(0, MAX_CHILDREN);
    const node = dictOf(span);
    const built = shown.map((kid) => build(kid, depth + 1));
    if (kids.length > shown.length)
      built.push({ name: `(${kids.length - shown.length} more spans left out)`, type: "custom", children: [] });
    return { ...node, children: built };
  };
  if (roots.length === 1) return build(roots[0], 0);
  return { name: "trace", type: "custom", children: roots.map((root) => build(root, 1)) };
}

function dictOf(span: TraceSpan): Omit<DeepEvalSpan, "children"> {
  const type = TYPES[span.type ?? ""] ?? "custom";
  const inputs = cut(orNullOnTraceError(() => spanInputs(span)));
  const outputs = cut(orNullOnTraceError(() => spanOutputs(span)));
  const node: Record<string, unknown> = { name: span.name ?? "(unnamed)", type };
  if (type === "tool") {
    if (inputs !== null) node.input = { inputParameters: inputs };
  } else if (inputs !== null) node.input = inputs;
  if (type === "retriever" && Array.isArray(outputs)) {
    node.output = {
      retrievalContext: outputs.map((chunk) => (isRecord(chunk) ? (chunk.page_content ?? chunk) : chunk)),
    };
  } else if (outputs !== null) node.output = outputs;
  if (type === "llm") {
    const model = orNullOnTraceError(() => decodeAttribute(span.attributes["mlflow.llm.model"], "mlflow.llm.model"));
    if (typeof model === "string") node.model = model;
    const usage = orNullOnTraceError(() =>
      decodeAttribute(span.attributes["mlflow.chat.tokenUsage"], "mlflow.chat.tokenUsage"),
    );
    if (isRecord(usage)) {
      if (typeof usage.input_tokens === "number") node.inputTokenCount = usage.input_tokens;
      if (typeof usage.output_tokens === "number") node.outputTokenCount = usage.output_tokens;
    }
  }
  const error = spanError(span, "error");
  if (error !== null) node.error = error;
  return node;
}

/** A JSON value with every string cut at MAX_TEXT characters (DeepEval drops None values: so does this). */
function cut(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === "string")
    return value.length > MAX_TEXT
      ? `${value.slice(0, MAX_TEXT)}… (${value.length - MAX_TEXT} more characters)`
      : value;
  if (depth > 12) return "(nested deeper: left out)";
  if (Array.isArray(value)) return value.map((item) => cut(item, depth + 1));
  if (isRecord(value))
    return Object.fromEntries(
      Object.entries(value).flatMap(([key, item]) =>
        item === null || item === undefined ? [] : [[key, cut(item, depth + 1)]],
      ),
    );
  return value;
}
