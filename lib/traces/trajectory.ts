import { tokenUsageOf } from "@/lib/ingest/mlflowTrace";
import {
  readSpansOrNull,
  spanInputs,
  spanOutputs,
  spanTree,
  orNullOnTraceError,
  spanError,
  type TraceSpan,
} from "@/lib/ingest/traceSpans";

/**
 * A trace as the drill-down draws it: every span in tree order (a parent, then its children by start
 * time), with its depth, its offset and duration against the trace's start (for a timeline), its type,
 * status and error, the tokens an LLM span reports, and its inputs and outputs as text. Built on the
 * server from the stored trace; the text is shown inert (never as HTML) and long text collapsed.
 */
export type TrajectorySpan = {
  id: string;
  parentId: string | null;
  depth: number;
  name: string;
  type: string;
  startMs: number | null;
  durationMs: number | null;
  status: "ok" | "error" | "unset";
  error: string | null;
  tokens: { input: number; output: number } | null;
  inputs: string | null;
  outputs: string | null;
};

export type Trajectory = {
  spans: TrajectorySpan[];
  /** From the first span's start to the last span's end. */
  totalMs: number | null;
  /** Spans per type, in the order first seen (AGENT 1, CHAT_MODEL 3, TOOL 4, …). */
  typeCounts: { type: string; count: number }[];
};

/** Inputs and outputs past this many characters are cut (the trace itself is kept whole in the store). */
export const SPAN_TEXT_LIMIT = 20_000;

/** The trajectory of a stored trace, or null when there is none or it cannot be read. */
export function buildTrajectory(trace: unknown): Trajectory | null {
  const spans = readSpansOrNull(trace);
  if (spans === null) return null;
  const starts = spans.flatMap((span) => (span.start === null ? [] : [span.start]));
  const ends = spans.flatMap((span) => (span.end === null ? [] : [span.end]));
  const origin = starts.length > 0 ? starts.reduce((a, b) => Math.min(a, b)) : null;
  const last = ends.length > 0 ? ends.reduce((a, b) => Math.max(a, b)) : null;

  const keyOf = (span: TraceSpan) => span.id ?? `#${span.index}`;
  const { roots, childrenOf } = spanTree(spans);
  const ordered: TrajectorySpan[] = [];
  // By position in the file, not id: a malformed trace with two spans of one id still draws both.
  const visited = new Set<number>();
  // Depth first without recursion: a deep or cyclic parent chain cannot overflow the stack.
  const stack: { span: TraceSpan; depth: number }[] = [...roots].reverse().map((span) => ({ span, depth: 0 }));
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (visited.has(next.span.index)) continue;
    visited.add(next.span.index);
    ordered.push(toTrajectorySpan(next.span, keyOf(next.span), next.depth, origin));
    const kids = [...childrenOf(next.span)].reverse();
    for (const kid of kids) stack.push({ span: kid, depth: next.depth + 1 });
  }
  // Spans only reachable through a cycle still appear, at the top level.
  for (const span of spans) if (!visited.has(span.index)) ordered.push(toTrajectorySpan(span, keyOf(span), 0, origin));

  const counts = new Map<string, number>();
  for (const span of ordered) counts.set(span.type, (counts.get(span.type) ?? 0) + 1);
  return {
    spans: ordered,
    totalMs: origin !== null && last !== null && last >= origin ? (last - origin) / 1e6 : null,
    typeCounts: [...counts].map(([type, count]) => ({ type, count })),
  };
}

function toTrajectorySpan(span: TraceSpan, id: string, depth: number, origin: number | null): TrajectorySpan {
  const error = spanError(span, "error");
  const failed = error !== null;
  return {
    id,
    parentId: span.parentId,
    depth,
    name: span.name ?? "(unnamed span)",
    type: span.type ?? "UNKNOWN",
    startMs: span.start !== null && origin !== null ? (span.start - origin) / 1e6 : null,
    durationMs:
      span.start !== null && span.end !== null && span.end >= span.start ? (span.end - span.start) / 1e6 : null,
    status: failed ? "error" : span.status === "OK" ? "ok" : "unset",
    error,
    tokens: tokensOf(span),
    inputs: textOf(orNullOnTraceError(() => spanInputs(span))),
    outputs: textOf(orNullOnTraceError(() => spanOutputs(span))),
  };
}

function tokensOf(span: TraceSpan): { input: number; output: number } | null {
  if (span.type !== "LLM" && span.type !== "CHAT_MODEL") return null;
  // Read as the upload read the row's totals: mlflow.chat.tokenUsage, outputs.usage, OpenInference, gen_ai.
  const usage = orNullOnTraceError(() => tokenUsageOf(span));
  return usage && typeof usage === "object" && "input" in usage && "output" in usage
    ? { input: Number(usage.input), output: Number(usage.output) }
    : null;
}

/** A span's inputs or outputs as text: strings as they are, anything else as indented JSON; cut at the limit. */
function textOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  if (text === undefined) return null;
  return text.length > SPAN_TEXT_LIMIT
    ? `${text.slice(0, SPAN_TEXT_LIMIT)}\n… (${(text.length - SPAN_TEXT_LIMIT).toLocaleString("en-US")} more characters)`
    : text;
}
