/**
 * One label's value, checked against its kind: what uploads, imports and the
 * drill-down all go through, so a label is stored only in its one valid shape.
 */
export type LabelValue = { kind: "rating"; rating: "yes" | "no" } | { kind: "score"; score: number };

/**
 * A whole-row label (chunkPosition -1) or one chunk's (0-based position), with the labeller's reason when they
 * gave one (an aligned judge's worked example shows it).
 */
export type LabelEntry = { metric: string; chunkPosition: number; value: LabelValue; reason?: string | null };

/** A reason is a sentence or a short paragraph. */
export const MAX_LABEL_REASON_CHARS = 2000;
