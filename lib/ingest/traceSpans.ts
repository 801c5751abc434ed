import { measureJsonValue } from "./jsonShape";
import { MAX_JSON_NESTING_DEPTH } from "./limits";

/**
 * The spans of an MLflow trace, read alike from both span shapes: MLflow 3 (`span_id`,
 * `parent_span_id`, `start_time_unix_nano`, `status: {code, message}`, events with `time_unix_nano`)
 * and MLflow 2 (`context.span_id`, `parent_id`, `start_time`, `status_code`, events with
 * `timestamp`). Span attribute values are JSON-encoded strings in MLflow; plain values are
 * accepted too. Ingest reads a row's facts from these, the drill-down its trajectory.
 */
export type TraceSpan = {
  index: number;
  name: string | null;
  id: string | null;
  parentId: string | null;
  /** Nanoseconds since the epoch (MLflow 3) or as the trace gave them (MLflow 2's ns too). */
  start: number | null;
  end: number | null;
  /** mlflow.spanType, upper-cased (LLM, CHAT_MODEL, TOOL, RETRIEVER, AGENT, CHAIN, …). */
  type: string | null;
  /** OK, ERROR or UNSET, from either shape's status. */
  status: string | null;
  statusMessage: string | null;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
};

export class TraceFormatError extends Error {}

/** The trace's spans in file order, or a TraceFormatError saying what is missing. */
export function readTraceSpans(trace: unknown): { spans: TraceSpan[]; data: Record<string, unknown> } {
  if (!isRecord(trace))
    throw new TraceFormatError("a trace must be an MLflow trace JSON object with info and data.spans");
  const data = trace.data;
  if (!isRecord(data) || !Array.isArray(data.spans)) throw new TraceFormatError("the trace has no data.spans array");
  return { spans: data.spans.map(readSpan), data };
}

function readSpan(raw: unknown, index: number): TraceSpan {
  if (!isRecord(raw)) throw new TraceFormatError(`data.spans[${index}] is not an object`);
  const context = isRecord(raw.context) ? raw.context : {};
  const attributes = isRecord(raw.attributes) ? raw.attributes : {};
  const type =
    decodeAttribute(attributes["mlflow.spanType"], `data.spans[${index}] attribute mlflow.spanType`) ?? raw.span_type;
  const status = isRecord(raw.status) ? raw.status : {};
  const code = status.code ?? status.status_code ?? raw.status_code;
  const message = status.message ?? status.description ?? raw.status_message;
  return {
    index,
    name: typeof raw.name === "string" ? raw.name : null,
    id: asId(raw.span_id ?? context.span_id),
    parentId: asId(raw.parent_span_id ?? raw.parent_id),
    start: asNanos(raw.start_time_unix_nano ?? raw.start_time_ns ?? raw.start_time),
    end: asNanos(raw.end_time_unix_nano ?? raw.end_time_ns ?? raw.end_time),
    type: typeof type === "string" ? type.toUpperCase() : null,
    status: typeof code === "string" ? statusWord(code) : null,
    statusMessage: typeof message === "string" && message !== "" ? message : null,
    attributes,
    events: Array.isArray(raw.events)
      ? raw.events.flatMap((event) =>
          isRecord(event) && typeof event.name === "string"
            ? [{ name: event.name, attributes: isRecord(event.attributes) ? event.attributes : {} }]
            : [],
        )
      : [],
  };
}

/** "STATUS_CODE_ERROR" (the REST form), "ERROR", "error" all read ERROR. */
function statusWord(code: string): string {
  return code
    .toUpperCase()
    .replace(/^STATUS_CODE_/, "")
    .trim();
}

export function spanInputs(span: TraceSpan): unknown {
  return decodeAttribute(span.attributes["mlflow.spanInputs"], `data.spans[${span.index}] attribute mlflow.spanInputs`);
}

export function spanOutputs(span: TraceSpan): unknown {
  return decodeAttribute(
    span.attributes["mlflow.spanOutputs"],
    `data.spans[${span.index}] attribute mlflow.spanOutputs`,
  );
}

/** The spans of a stored trace, or null when it has none or cannot be read (a page or judge then shows less). */
export function readSpansOrNull(trace: unknown): TraceSpan[] | null {
  if (trace === null || trace === undefined) return null;
  try {
    const { spans } = readTraceSpans(trace);
    return spans.length > 0 ? spans : null;
  } catch (error) {
    if (error instanceof TraceFormatError) return null;
    throw error;
  }
}

/**
 * The spans as a tree: the roots and each span's children, both in start order (then file order). A span whose
 * parent is not in the trace is a root rather than lost.
 */
export function spanTree(spans: readonly TraceSpan[]): {
  roots: TraceSpan[];
  childrenOf: (span: TraceSpan) => TraceSpan[];
} {
  const ids = new Set(spans.flatMap((span) => (span.id === null ? [] : [span.id])));
  const roots: TraceSpan[] = [];
  const children = new Map<string, TraceSpan[]>();
  for (const span of spans) {
    if (span.parentId === null || !ids.has(span.parentId)) roots.push(span);
    else {
      const siblings = children.get(span.parentId);
      if (siblings) siblings.push(span);
      else children.set(span.parentId, [span]);
    }
  }
  const byStart = (a: TraceSpan, b: TraceSpan) => (a.start ?? 0) - (b.start ?? 0) || a.index - b.index;
  roots.sort(byStart);
  for (const list of children.values()) list.sort(byStart);
  return { roots, childrenOf: (span) => (span.id === null ? [] : (children.get(span.id) ?? [])) };
}

/**
 * Why a span failed: "<exception.type>: <exception.message>" from its `exception` event (MLflow's reading), else
 * its error status's message, else `fallback`; null when it did not fail.
 */
export function spanError(span: TraceSpan, fallback: string): string | null {
  const exception = span.events.find((event) => event.name === "exception");
  if (exception) {
    const type = exception.attributes["exception.type"];
    const message = exception.attributes["exception.message"];
    return `${typeof type === "string" ? type : "Exception"}: ${typeof message === "string" ? message : ""}`.trim();
  }
  return span.status === "ERROR" ? (span.statusMessage ?? fallback) : null;
}

/** A stored trace passed the upload's checks: an attribute that no longer decodes reads as missing, not an error. */
export function orNullOnTraceError(read: () => unknown): unknown {
  try {
    return read();
  } catch (error) {
    if (error instanceof TraceFormatError) return null;
    throw error;
  }
}

/** The root span: the one without a parent, else the first. */
export function rootSpan(spans: readonly TraceSpan[]): TraceSpan | null {
  return spans.find((span) => span.parentId === null) ?? spans[0] ?? null;
}

/**
 * MLflow stores attribute values json.dumps'ed; decode when possible, else
 * keep the value. A JSON string inside the trace is a second value the
 * upload's depth check has not seen, so it gets the same limit here.
 */
export function decodeAttribute(value: unknown, where: string): unknown {
  if (typeof value !== "string") return value;
  let decoded: unknown;
  try {
    decoded = JSON.parse(value);
  } catch {
    return value;
  }
  if (measureJsonValue(decoded).tooDeep)
    throw new TraceFormatError(`${where} is nested deeper than ${MAX_JSON_NESTING_DEPTH} levels`);
  return decoded;
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

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
