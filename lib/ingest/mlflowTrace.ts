import { agentOutputText } from "./agentOutputText";
import { describeType } from "./normalizeRequest";
import type { ContextItem, TokenCounts } from "@/lib/contract/normalizedRow";
import type { AvailableTool, ToolCall } from "@/lib/contract/toolCalls";
import { readAvailableTools, readToolCalls } from "./toolCallsFromTrace";
import {
  decodeAttribute,
  isRecord,
  readTraceSpans,
  rootSpan,
  spanOutputs,
  TraceFormatError,
  type TraceSpan as Span,
} from "./traceSpans";

export { TraceFormatError };

/**
 * Reads what Agent Evaluation derives from an MLflow trace (its metric reference and input schema):
 * the response (root span output), the retrieved context (the chronologically
 * last RETRIEVER span), token counts (summed over LLM spans) and the
 * end-to-end latency; and, beyond it, the agent's tool calls (its TOOL spans, as MLflow's scorers read
 * them) and the tools offered to its model (toolCallsFromTrace.ts). Both MLflow span shapes are read
 * (traceSpans.ts).
 */
export type TraceFacts = {
  response: string | null;
  retrievedContext: ContextItem[] | null;
  tokens: TokenCounts | null;
  latencySeconds: number | null;
  /** [] when the trace has no TOOL span (MLflow reads no chat-model tool_calls either). */
  toolCalls: ToolCall[];
  availableTools: AvailableTool[];
};

/** Agent Evaluation counts tokens over "all LLM spans in the trace": these two span types, never tool, retriever, chain or agent spans. */
const LLM_SPAN_TYPES = new Set(["LLM", "CHAT_MODEL"]);

export function extractTraceFacts(trace: unknown): TraceFacts {
  const { spans, data } = readTraceSpans(trace);
  const root = rootSpan(spans);
  const info = isRecord(trace) && isRecord(trace.info) ? trace.info : {};

  return {
    response: readResponse(root, data),
    retrievedContext: readLastRetrieval(spans),
    tokens: readTokens(spans),
    latencySeconds: readLatency(root, info),
    toolCalls: readToolCalls(spans),
    availableTools: readAvailableTools(spans),
  };
}

function readResponse(root: Span | null, data: Record<string, unknown>): string | null {
  const fromRoot = root ? agentOutputText(spanOutputs(root)) : null;
  if (fromRoot) return fromRoot;
  return agentOutputText(decodeAttribute(data.response, "data.response"));
}

/**
 * The chunks of the chronologically last RETRIEVER span. Agent Evaluation's input schema makes
 * doc_uri required for every chunk, so a chunk without one is an error of the
 * row, never patched with another field (an id, metadata.source) nor dropped.
 */
function readLastRetrieval(spans: Span[]): ContextItem[] | null {
  const retrievers = spans.filter((span) => span.type === "RETRIEVER");
  if (retrievers.length === 0) return null;
  // "the last retrieval step, chronologically in the trace" (Agent Evaluation input schema)
  const last = retrievers.reduce((a, b) => ((b.start ?? 0) >= (a.start ?? 0) ? b : a));
  const output = spanOutputs(last);
  if (!Array.isArray(output)) return [];
  const items: ContextItem[] = [];
  const problems: string[] = [];
  output.forEach((doc, position) => {
    const where = `data.spans[${last.index}].outputs[${position}]`;
    if (!isRecord(doc)) {
      problems.push(
        `${where}: expected a retrieved chunk object ({"page_content": ..., "metadata": {"doc_uri": ...}}), got ${describeType(doc)}`,
      );
      return;
    }
    const metadata = isRecord(doc.metadata) ? doc.metadata : {};
    const docUri = metadata.doc_uri ?? doc.doc_uri;
    const content = doc.page_content ?? doc.content ?? null;
    if (typeof docUri !== "string" || docUri.trim() === "") {
      problems.push(
        `${where}: this chunk of the last RETRIEVER span${last.name ? ` ("${last.name}")` : ""} has no doc_uri; every retrieved chunk needs one, in metadata.doc_uri`,
      );
      return;
    }
    items.push({ docUri, content: typeof content === "string" ? content : null });
  });
  if (problems.length > 0) {
    const more = problems.length - 1;
    throw new TraceFormatError(
      more > 0 ? `${problems[0]} (and ${more} more chunk${more === 1 ? "" : "s"} like it)` : problems[0],
    );
  }
  return items;
}

/**
 * Sums the usage of LLM and CHAT_MODEL spans. Each span's usage is read from
 * one place only (the first of mlflow.chat.tokenUsage, its outputs' usage,
 * OpenInference llm.token_count.*, OpenTelemetry gen_ai.usage.*), and a span
 * whose descendants already report usage is skipped: a framework's chat-model
 * span around an autologged client span describes the same call twice.
 */
function readTokens(spans: Span[]): TokenCounts | null {
  const usages = new Map<Span, { input: number; output: number }>();
  for (const span of spans) {
    if (span.type === null || !LLM_SPAN_TYPES.has(span.type)) continue;
    const usage = tokenUsageOf(span);
    if (usage) usages.set(span, usage);
  }
  if (usages.size === 0) return null;

  const byId = new Map(spans.flatMap((span) => (span.id === null ? [] : [[span.id, span] as const])));
  const coveredByDescendant = new Set<Span>();
  for (const span of usages.keys()) {
    let parent = span.parentId === null ? undefined : byId.get(span.parentId);
    for (let steps = 0; parent && steps < spans.length; steps += 1) {
      coveredByDescendant.add(parent);
      parent = parent.parentId === null ? undefined : byId.get(parent.parentId);
    }
  }
  let input = 0;
  let output = 0;
  for (const [span, usage] of usages) {
    if (coveredByDescendant.has(span)) continue;
    input += usage.input;
    output += usage.output;
  }
  return { input, output, total: input + output };
}

/** One LLM span's usage, from the first place that reports it (the same reading the row's token counts use). */
export function tokenUsageOf(span: Span): { input: number; output: number } | null {
  const where = `data.spans[${span.index}]`;
  const attribute = decodeAttribute(
    span.attributes["mlflow.chat.tokenUsage"],
    `${where} attribute mlflow.chat.tokenUsage`,
  );
  if (isRecord(attribute)) return { input: asCount(attribute.input_tokens), output: asCount(attribute.output_tokens) };
  const outputs = spanOutputs(span);
  if (isRecord(outputs) && isRecord(outputs.usage)) {
    const usage = outputs.usage;
    return {
      input: asCount(usage.prompt_tokens ?? usage.input_tokens),
      output: asCount(usage.completion_tokens ?? usage.output_tokens),
    };
  }
  for (const [inputKey, outputKey] of [
    ["llm.token_count.prompt", "llm.token_count.completion"],
    ["gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens"],
  ]) {
    const inputCount = decodeAttribute(span.attributes[inputKey], `${where} attribute ${inputKey}`);
    const outputCount = decodeAttribute(span.attributes[outputKey], `${where} attribute ${outputKey}`);
    if (typeof inputCount === "number" || typeof outputCount === "number")
      return { input: asCount(inputCount), output: asCount(outputCount) };
  }
  return null;
}

function readLatency(root: Span | null, info: Record<string, unknown>): number | null {
  if (root && root.start !== null && root.end !== null && root.end >= root.start) return (root.end - root.start) / 1e9;
  if (typeof info.execution_time_ms === "number") return info.execution_time_ms / 1000;
  if (typeof info.execution_duration === "string") {
    const seconds = Number.parseFloat(info.execution_duration);
    if (Number.isFinite(seconds)) return info.execution_duration.endsWith("ms") ? seconds / 1000 : seconds;
  }
  return null;
}

function asCount(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? Math.max(0, Math.round(value)) : 0;
}
