import type { LabelEntry } from "@/lib/contract/labelEntry";
import type { LabelKind } from "./labelKinds";

export const WHOLE_ROW = -1;

/** "yes"/"no" in any case, with spaces trimmed; anything else is null. */
export function parseRating(value: unknown): "yes" | "no" | null {
  if (typeof value !== "string") return null;
  const text = value.trim().toLowerCase();
  return text === "yes" || text === "no" ? text : null;
}

/** A score in [0, 1]; numeric text (a CSV cell) is read as a number. */
export function parseScore(value: unknown): number | null {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value.trim()) : value;
  if (typeof number !== "number" || !Number.isFinite(number) || number < 0 || number > 1) return null;
  return number;
}

/**
 * The entries one label value gives for a metric of a kind: one for a rating
 * or a score, one per labelled chunk for a chunk list (null leaves a chunk
 * unlabelled). An error in words when the value does not fit the kind.
 */
export function labelEntriesFor(
  metric: string,
  kind: LabelKind,
  value: unknown,
): { entries: LabelEntry[] } | { error: string } {
  if (kind === "rating") {
    const rating = parseRating(value);
    if (!rating) return { error: `expected "yes" or "no" for ${metric}, got ${JSON.stringify(value)}` };
    return { entries: [{ metric, chunkPosition: WHOLE_ROW, value: { kind: "rating", rating } }] };
  }
  if (kind === "score") {
    const score = parseScore(value);
    if (score === null) return { error: `expected a score from 0 to 1 for ${metric}, got ${JSON.stringify(value)}` };
    return { entries: [{ metric, chunkPosition: WHOLE_ROW, value: { kind: "score", score } }] };
  }
  if (!Array.isArray(value)) {
    return { error: `expected a list with "yes", "no" or null per retrieved chunk for ${metric}` };
  }
  const entries: LabelEntry[] = [];
  for (const [position, item] of value.entries()) {
    if (item === null) continue;
    const rating = parseRating(item);
    if (!rating) return { error: `chunk ${position} of ${metric}: expected "yes", "no" or null` };
    entries.push({ metric, chunkPosition: position, value: { kind: "rating", rating } });
  }
  return { entries };
}
