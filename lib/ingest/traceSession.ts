import { isRecord } from "./traceSpans";

/**
 * Which conversation a trace belongs to and when it was asked, as MLflow's `evaluate()` groups session
 * scorers (`genai/evaluation/session_utils.py`): the session is the trace metadata key
 * `mlflow.trace.session` (MLflow 3's `info.trace_metadata`; MLflow 2's `info.request_metadata` is read the
 * same way, though 2.x sets no such key itself), and turns are ordered by the request time (`request_time`,
 * ISO, in 3.x; `timestamp_ms` in 2.x).
 */
export const SESSION_METADATA_KEY = "mlflow.trace.session";

export function readTraceSession(trace: unknown): { sessionId: string | null; requestTimeMs: number | null } {
  const info = isRecord(trace) && isRecord(trace.info) ? trace.info : {};
  const session = metadataOf(info)[SESSION_METADATA_KEY];
  return {
    sessionId: typeof session === "string" && session.trim() !== "" ? session.trim() : null,
    requestTimeMs: requestTimeOf(info),
  };
}

/** The trace's metadata (MLflow 3's info.trace_metadata, 2's info.request_metadata) and tags; {} where it has none. */
export function traceInfoOf(trace: unknown): { metadata: Record<string, unknown>; tags: Record<string, unknown> } {
  const info = isRecord(trace) && isRecord(trace.info) ? trace.info : {};
  return { metadata: metadataOf(info), tags: isRecord(info.tags) ? info.tags : {} };
}

function metadataOf(info: Record<string, unknown>): Record<string, unknown> {
  return isRecord(info.trace_metadata)
    ? info.trace_metadata
    : isRecord(info.request_metadata)
      ? info.request_metadata
      : {};
}

function requestTimeOf(info: Record<string, unknown>): number | null {
  if (typeof info.request_time === "string") {
    const parsed = Date.parse(info.request_time);
    if (Number.isFinite(parsed)) return parsed;
  }
  if (typeof info.request_time === "number" && Number.isFinite(info.request_time)) return info.request_time;
  if (typeof info.timestamp_ms === "number" && Number.isFinite(info.timestamp_ms)) return info.timestamp_ms;
  return null;
}
