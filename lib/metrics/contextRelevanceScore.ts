import {
  DEFAULT_CONTEXT_RELEVANCE_SETTINGS,
  type ContextRelevanceSettings,
} from "@/lib/contract/contextRelevanceSettings";

/**
 * Mastra's context relevance score, as a pure function of the judge's assessment:
 * each context piece's relevance level and whether the response used it, and the missing
 * information it listed.
 *
 *   base    = Σ weights / (n × 1.0)            weights high 1.0, medium 0.7, low 0.3, none 0.0
 *   usage   = count(unused high) × unusedHighRelevanceContext
 *   missing = min(count(missing) × missingContextPerItem, maxMissingContextPenalty)
 *   final   = max(0, base − usage − missing) × scale, rounded to two decimals (as Mastra rounds)
 */
export const RELEVANCE_WEIGHTS = { high: 1.0, medium: 0.7, low: 0.3, none: 0.0 } as const;
export type RelevanceLevel = keyof typeof RELEVANCE_WEIGHTS;
export const RELEVANCE_LEVELS = Object.keys(RELEVANCE_WEIGHTS) as RelevanceLevel[];

export type ContextPieceAssessment = { level: RelevanceLevel; used: boolean };

export type ContextRelevanceScore = {
  score: number;
  base: number;
  usagePenalty: number;
  missingPenalty: number;
  unusedHighRelevance: number;
  missingCount: number;
};

export function computeContextRelevance(
  pieces: ContextPieceAssessment[],
  missingCount: number,
  settings: ContextRelevanceSettings = DEFAULT_CONTEXT_RELEVANCE_SETTINGS,
): ContextRelevanceScore {
  const unusedHighRelevance = pieces.filter((piece) => piece.level === "high" && !piece.used).length;
  if (pieces.length === 0) {
    // Mastra: no assessed piece scores 0 when information was missing, 1 otherwise (unscaled, as Mastra returns it).
    const score = missingCount > 0 ? 0 : 1;
    return { score, base: score, usagePenalty: 0, missingPenalty: 0, unusedHighRelevance, missingCount };
  }
  const base = pieces.reduce((sum, piece) => sum + RELEVANCE_WEIGHTS[piece.level], 0) / (pieces.length * 1.0);
  const usagePenalty = unusedHighRelevance * settings.unusedHighRelevanceContext;
  const missingPenalty = Math.min(missingCount * settings.missingContextPerItem, settings.maxMissingContextPenalty);
  const score = roundToTwoDecimals(Math.max(0, base - usagePenalty - missingPenalty) * settings.scale);
  return { score, base, usagePenalty, missingPenalty, unusedHighRelevance, missingCount };
}

function roundToTwoDecimals(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}
