/**
 * One result type for every judge (STYLE.md "One result type"): a yes/no
 * rating and/or a score, a rationale, an error. Per-chunk judges add one
 * verdict per chunk. Field meanings follow Agent Evaluation's judge and metric references: an errored result
 * has errorMessage set and its other values null. The judges return it, the store writes it.
 */
export type Rating = "yes" | "no";

/** Tokens a model call consumed (summed over its attempts); a judgment's sum its calls'. */
export type TokenUsage = { inputTokens: number; outputTokens: number };

export type ChunkVerdict = {
  position: number;
  rating: Rating | null;
  rationale: string | null;
  errorMessage: string | null;
};

export type JudgeVerdict = {
  rating: Rating | null;
  /** In [0, 1] for score judges and per-chunk precision; null for pure yes/no judges. */
  score: number | null;
  rationale: string | null;
  errorMessage: string | null;
  chunks?: ChunkVerdict[];
  /** The intermediate verdicts behind a score (DeepEval and Mastra metrics), so a reviewer sees why it is 0.64. */
  details?: VerdictDetails | null;
};

/** One intermediate verdict: a claim, statement, retrieval node, opinion or context piece, and what the judge said of it. */
export type DetailItem = {
  text: string;
  /** e.g. "yes" | "no" | "idk", "high" | "medium" | "low" | "none". */
  verdict: string;
  reason?: string | null;
  /** Extra facts shown beside the verdict, e.g. "used in the response", "rank 3". */
  tags?: string[];
};

/**
 * What a score metric stores besides its score: titled groups of items
 * ("Claims", "Context pieces", "Missing information") and named figures
 * ("alignment", "coverage", "usage penalty"), rendered uniformly by the drill-down.
 */
export type VerdictDetails = {
  groups: { title: string; items: DetailItem[] }[];
  figures?: Record<string, number | null>;
  /** What a reviewer should know about how the score was reached (a list cut at the cap, strict mode). */
  notes?: string[];
};

/** Where a verdict came from: stored with every result so any rating can be traced to the exact prompt. */
export type VerdictProvenance = {
  provider: string;
  model: string;
  promptVersion: string;
  promptHash: string | null;
  usage: TokenUsage | null;
  cacheHit: boolean;
  attempts: number;
  latencyMs: number;
};

export type JudgeResult = JudgeVerdict & VerdictProvenance;
