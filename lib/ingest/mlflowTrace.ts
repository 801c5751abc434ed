import type { ContextItem, TokenCounts } from "./types";

/**
 * Reads what Agent Evaluation derives from an MLflow trace (seeds 001, 004):
 * the response (root span output), the retrieved context (the chronologically
 * last RETRIEVER span), token counts (summed over LLM spans) and the
 * end-to-end latency. Both the MLflow 2 (`start_time`, `context.span_id`,
 * `parent_id`) and MLflow 3 (`start_time_unix_nano`, `span_id`,
 * `parent_span_id`) span shapes are read. Span attribute values are
 * JSON-encoded strings in MLflow; plain values are accepted too.
 */
export type TraceFacts = {
  response: string | null;
  retrievedContext: ContextItem[] | null;
  tokens: TokenCounts | null;
  latencySeconds: number | null;
};

type Span = {
  id: string | null;
  parentId: string | null;
  start: number | null; // nanoseconds
  end: number | null;
  type: string | null;
  attributes: Record<string, unknown>;
};

const LLM_SPAN_TYPES = new Set(["LLM", "CHAT_MODEL"]);

export class TraceFormatError extends Error {}

export function extractTraceFacts(trace: unknown): TraceFacts {
  if (!isRecord(trace)) throw new TraceFormatError("a trace must be an MLflow trace JSON object with info and data.spans");
  const data = trace.data;
  if (!isRecord(data) || !Array.isArray(data.spans)) throw new TraceFormatError("the trace has no data.spans array");
  const spans = data.spans.map(readSpan);
  const root = spans.find((span) => span.parentId === null) ?? spans[0] ?? null;

  return {
    response: readResponse(root, data),
    retrievedContext: readLastRetrieval(spans),
    tokens: readTokens(spans),
    latencySeconds: readLatency(root, isRecord(trace.info) ? trace.info : {}),
  };
}

function readSpan(raw: unknown, index: number): Span {
  if (!isRecord(raw)) throw new TraceFormatError(`span ${index} is not an object`);
  const context = isRecord(raw.context) ? raw.context : {};
  const attributes = isRecord(raw.attributes) ? raw.attributes : {};
  const type = decodeAttribute(attributes["mlflow.spanType"]) ?? raw.span_type;
  return {
    id: asId(raw.span_id ?? context.span_id),
    parentId: asId(raw.parent_span_id ?? raw.parent_id),
    start: asNanos(raw.start_time_unix_nano ?? raw.start_time_ns ?? raw.start_time),
    end: asNanos(raw.end_time_unix_nano ?? raw.end_time_ns ?? raw.end_time),
    type: typeof type === "string" ? type.toUpperCase() : null,
    attributes,
  };
}

function readResponse(root: Span | null, data: Record<string, unknown>): string | null {
  const fromRoot = root ? textOfOutput(decodeAttribute(root.attributes["mlflow.spanOutputs"])) : null;
  if (fromRoot) return fromRoot;
  return textOfOutput(decodeAttribute(data.response));
}

/** An agent's output may be a string, a ChatCompletion, a {messages} list, or {content}. */
function textOfOutput(output: unknown): string | null {
  if (typeof output === "string") return output.trim() === "" ? null : output;
  if (!isRecord(output)) return null;
  if (Array.isArray(output.choices) && isRecord(output.choices[0])) {
    const choice = output.choices[0];
    if (isRecord(choice.message) && typeof choice.message.content === "string") return choice.message.content;
    if (typeof choice.text === "string") return choice.text;
  }
  if (Array.isArray(output.messages)) {
    const last = output.messages[output.messages.length - 1];
    if (isRecord(last) && typeof last.content === "string") return last.content;
  }
  for (const key of ["content", "output", "response", "answer"]) {
    if (typeof output[key] === "string") return output[key] as string;
  }
  return null;
}

function readLastRetrieval(spans: Span[]): ContextItem[] | null {
  const retrievers = spans.filter((span) => span.type === "RETRIEVER");
  if (retrievers.length === 0) return null;
  // "the last retrieval step, chronologically in the trace" (seed 004)
  const last = retrievers.reduce((a, b) => ((b.start ?? 0) >= (a.start ?? 0) ? b : a));
  const output = decodeAttribute(last.attributes["mlflow.spanOutputs"]);
  if (!Array.isArray(output)) return [];
  return output.flatMap((doc): ContextItem[] => {
    if (!isRecord(doc)) return [];
    const metadata = isRecord(doc.metadata) ? doc.metadata : {};
    const docUri = metadata.doc_uri ?? doc.doc_uri ?? metadata.source ?? doc.id ?? null;
    const content = doc.page_content ?? doc.content ?? null;
    if (typeof docUri !== "string" || docUri === "") return [];
    return [{ docUri, content: typeof content === "string" ? content : null }];
  });
}

function readTokens(spans: Span[]): TokenCounts | null {
  let input = 0;
  let output = 0;
  let found = false;
  for (const span of spans) {
    const usage = tokenUsageOf(span);
    if (!usage) continue;
    found = true;
    input += usage.input;
    output += usage.output;
  }
  return found ? { input, output, total: input + output } : null;
}

function tokenUsageOf(span: Span): { input: number; output: number } | null {
  const attribute = decodeAttribute(span.attributes["mlflow.chat.tokenUsage"]);
  if (isRecord(attribute)) {
    return { input: asCount(attribute.input_tokens), output: asCount(attribute.output_tokens) };
  }
  if (span.type === null || !LLM_SPAN_TYPES.has(span.type)) return null;
  const outputs = decodeAttribute(span.attributes["mlflow.spanOutputs"]);
  if (isRecord(outputs) && isRecord(outputs.usage)) {
    return { input: asCount(outputs.usage.prompt_tokens ?? outputs.usage.input_tokens), output: asCount(outputs.usage.completion_tokens ?? outputs.usage.output_tokens) };
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

/** MLflow stores attribute values json.dumps'ed; decode when possible, else keep the value. */
function decodeAttribute(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function asId(value: unknown): string | null {
  if (typeof value === "string" && value !== "") return value;
  if (typeof value === "number") return String(value);
  return null;
}

function asNanos(value: unknown): number | null {
  const n = typeof value === "string" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) ? n : null;
}

function asCount(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? Math.max(0, Math.round(value)) : 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
