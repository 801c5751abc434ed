import { z } from "zod";
import type { ChatMessage } from "@/lib/contract/normalizedRow";

/** Decodes the JSON columns of a stored row for display; a malformed value degrades to empty rather than failing the page. */
const messagesSchema = z.array(z.object({ role: z.string(), content: z.string() })).catch([]);
const factsSchema = z.array(z.string()).nullable().catch(null);

export function decodeMessages(json: string): ChatMessage[] {
  return messagesSchema.parse(safeJson(json));
}

export function decodeFacts(json: string | null): string[] | null {
  return json === null ? null : factsSchema.parse(safeJson(json));
}

export function prettyJson(json: string | null): string | null {
  if (json === null) return null;
  const value = safeJson(json);
  return value === undefined ? json : JSON.stringify(value, null, 2);
}

/** A short description of an MLflow trace: span count and span types, for the row view. */
export function summarizeTrace(json: string | null): { spans: number; types: Record<string, number> } | null {
  const trace = safeJson(json ?? "null") as {
    data?: { spans?: { attributes?: Record<string, unknown>; span_type?: unknown }[] };
  } | null;
  const spans = trace?.data?.spans;
  if (!Array.isArray(spans)) return null;
  const types: Record<string, number> = {};
  for (const span of spans) {
    const raw = span?.attributes?.["mlflow.spanType"] ?? span?.span_type ?? "UNKNOWN";
    const type = String(typeof raw === "string" ? raw.replace(/"/g, "") : raw);
    types[type] = (types[type] ?? 0) + 1;
  }
  return { spans: spans.length, types };
}

function safeJson(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

/** A row's chunks by kind, and the expected documents' URIs (to mark which retrieved chunks were expected). */
export function splitChunks<T extends { kind: string; docUri: string }>(
  chunks: T[],
): { retrieved: T[]; expected: T[]; expectedUris: Set<string> } {
  const expected = chunks.filter((chunk) => chunk.kind === "expected");
  return {
    retrieved: chunks.filter((chunk) => chunk.kind === "retrieved"),
    expected,
    expectedUris: new Set(expected.map((chunk) => chunk.docUri)),
  };
}
