/**
 * The QAG formulas of DeepEval's metric family, as pure functions
 * of the judge's verdicts: the model answers closed questions ("is this claim
 * supported?"), never the score, and the score is computed here.
 *
 * Edge cases follow DeepEval's own `_calculate_score` of each metric:
 * - faithfulness, answer_relevancy: no claims / statements → 1 (nothing unfaithful or irrelevant was said);
 *   `idk` counts as faithful / relevant (only "no" counts against).
 * - contextual_precision, contextual_recall, contextual_relevancy: no nodes, sentences or statements → 0;
 *   only "yes" counts (an empty expected output has no sentences, so recall is 0).
 * - hallucination, toxicity, bias (lower is better): no context items / opinions → 0.
 * - summarization: alignment counts only "yes" (an `idk` claim, not in the source, is an invention and
 *   is penalised), no claims → 0; coverage counts the questions the source answers "yes", and of those
 *   the ones the summary answers "yes" too, none → 0; the score is min(alignment, coverage).
 */
export type TriVerdict = "yes" | "no" | "idk";
export type BinaryVerdict = "yes" | "no";

const ratio = (part: number, whole: number): number => part / whole;
const count = <T>(items: readonly T[], test: (item: T) => boolean): number => items.filter(test).length;

/**
 * (yes + idk) / claims: a claim the retrieval context neither supports nor contradicts is not held against
 * the response. With DeepEval's penalize_ambiguous_claims it is: yes / claims.
 */
export function faithfulnessScore(
  verdicts: readonly TriVerdict[],
  options: { penalizeAmbiguousClaims?: boolean } = {},
): number {
  if (verdicts.length === 0) return 1;
  const counted = options.penalizeAmbiguousClaims ? (v: TriVerdict) => v === "yes" : (v: TriVerdict) => v !== "no";
  return ratio(count(verdicts, counted), verdicts.length);
}

/** relevant (yes + idk) / statements: an ambiguous statement (`idk`) may support the answer. */
export function answerRelevancyScore(verdicts: readonly TriVerdict[]): number {
  if (verdicts.length === 0) return 1;
  return ratio(
    count(verdicts, (v) => v !== "no"),
    verdicts.length,
  );
}

/**
 * Rank-weighted average precision over the relevant nodes, in retrieval order:
 * Σ_k (relevant_k × precision@k) / relevant nodes. Relevant nodes ranked early score higher:
 * [yes, no] → 1, [no, yes] → 0.5. No nodes, or no relevant node → 0.
 */
export function contextualPrecisionScore(nodeRelevant: readonly BinaryVerdict[]): number {
  let relevantSoFar = 0;
  let weightedPrecision = 0;
  nodeRelevant.forEach((verdict, index) => {
    if (verdict !== "yes") return;
    relevantSoFar += 1;
    weightedPrecision += relevantSoFar / (index + 1);
  });
  return relevantSoFar === 0 ? 0 : weightedPrecision / relevantSoFar;
}

/** Sentences of the expected output attributable to some retrieval node / sentences. */
export function contextualRecallScore(sentenceAttributable: readonly BinaryVerdict[]): number {
  if (sentenceAttributable.length === 0) return 0;
  return ratio(
    count(sentenceAttributable, (v) => v === "yes"),
    sentenceAttributable.length,
  );
}

/** Statements of the retrieval context relevant to the input / statements, over all nodes. */
export function contextualRelevancyScore(statementsPerNode: readonly (readonly BinaryVerdict[])[]): number {
  const all = statementsPerNode.flat();
  if (all.length === 0) return 0;
  return ratio(
    count(all, (v) => v === "yes"),
    all.length,
  );
}

/** Ideal-context items the response contradicts / items; each verdict is "does the response agree?" (no = contradicted). Lower is better. */
export function hallucinationScore(contextAgrees: readonly BinaryVerdict[]): number {
  if (contextAgrees.length === 0) return 0;
  return ratio(
    count(contextAgrees, (v) => v === "no"),
    contextAgrees.length,
  );
}

/** Toxic (toxicity) or biased (bias) opinions / opinions; each verdict is "is this opinion toxic / biased?". Lower is better. */
export function harmfulOpinionScore(opinionHarmful: readonly BinaryVerdict[]): number {
  if (opinionHarmful.length === 0) return 0;
  return ratio(
    count(opinionHarmful, (v) => v === "yes"),
    opinionHarmful.length,
  );
}

export type CoverageAnswer = { source: TriVerdict; summary: TriVerdict };
export type SummarizationScores = { alignment: number; coverage: number; score: number };

/**
 * Alignment: summary claims the source supports ("yes") / claims; a contradiction ("no") or an
 * invention ("idk") counts against. Coverage: of the closed questions the source answers "yes",
 * the share the summary answers "yes" too. Score = min(alignment, coverage).
 */
export function summarizationScores(
  alignment: readonly TriVerdict[],
  coverage: readonly CoverageAnswer[],
): SummarizationScores {
  const alignmentScore =
    alignment.length === 0
      ? 0
      : ratio(
          count(alignment, (v) => v === "yes"),
          alignment.length,
        );
  const answerable = coverage.filter((q) => q.source === "yes");
  const coverageScore =
    answerable.length === 0
      ? 0
      : ratio(
          count(answerable, (q) => q.summary === "yes"),
          answerable.length,
        );
  return { alignment: alignmentScore, coverage: coverageScore, score: Math.min(alignmentScore, coverageScore) };
}
