import { customMetricName, type CustomJudgeDefinition } from "@/lib/contract/judgeDefinitions";
import type { Alignment } from "@/lib/contract/alignment";
import { costUsd, type LlmPrices } from "@/lib/llm/pricing";
import { gEvalMetricName } from "@/lib/contract/gEvalMetric";
import type { AlignmentPlan } from "./alignJudge";

/**
 * What an alignment will cost before it starts, as a run's estimate is shown before it starts: one call
 * per held-out row (the aligned version judges each; the original's verdicts come from the base run; a
 * per-chunk judge's held-out chunks of a row share one call),
 * one more when a guidance draft is asked for. Tokens are counted from the text the prompts carry (the
 * examples are in every call) at four characters a token, with the instructions' share and a verdict's
 * length as fixed allowances; the price is the endpoint's, null when the model has none.
 */
export type AlignmentEstimate = { llmCalls: number; inputTokens: number; outputTokens: number; usd: number | null };

/** The judge's instructions and the fences around the content: about 2,000 characters in every prompt. */
const PROMPT_ALLOWANCE_CHARS = 2_000;
/** A verdict with its rationale. */
const OUTPUT_TOKENS_PER_CALL = 150;
const CHARS_PER_TOKEN = 4;

export function estimateAlignment(
  plan: Pick<AlignmentPlan, "heldOut" | "alignment">,
  options: { model: string; prices: LlmPrices; guidanceDraft: boolean; disagreementChars?: number },
): AlignmentEstimate {
  const examplesChars = plan.alignment.examples.reduce((sum, e) => sum + e.text.length + (e.reason?.length ?? 0), 0);
  // A per-chunk judge judges a held-out row's chunks in one call (measureAlignment shares it): one call per row.
  const rows = new Map(plan.heldOut.map((unit) => [rowKeyOf(unit.key), unit]));
  const perCallChars = [...rows.values()].map((unit) => rowChars(unit) + examplesChars + PROMPT_ALLOWANCE_CHARS);
  const draftChars = options.guidanceDraft ? (options.disagreementChars ?? 0) + PROMPT_ALLOWANCE_CHARS : 0;
  const llmCalls = rows.size + (options.guidanceDraft ? 1 : 0);
  const inputTokens = Math.ceil((perCallChars.reduce((a, b) => a + b, 0) + draftChars) / CHARS_PER_TOKEN);
  const outputTokens = llmCalls * OUTPUT_TOKENS_PER_CALL;
  return {
    llmCalls,
    inputTokens,
    outputTokens,
    usd: costUsd(options.model, { inputTokens, outputTokens }, options.prices),
  };
}

/** "<rowId>" of a label key ("<rowId>" or "<rowId>#<chunk>"). */
export function rowKeyOf(key: string): string {
  const chunk = key.lastIndexOf("#");
  return chunk < 0 ? key : key.slice(0, chunk);
}

/** What a held-out row's call reads: its request, its response, its retrieved chunks. */
function rowChars(unit: AlignmentPlan["heldOut"][number]): number {
  const { input } = unit;
  return (
    input.request.length +
    (input.response?.length ?? 0) +
    input.retrievedContext.reduce((sum, chunk) => sum + (chunk.content?.length ?? 0), 0)
  );
}

/** The examples' fences, the rule about them and the guidance's heading: about 500 characters in every call. */
const ALIGNED_RULE_CHARS = 500;

/** What an aligned judge's prompt carries besides the row, in characters: its examples, their reasons, its guidance. */
export function alignmentPromptChars(alignment: Alignment): number {
  const examples = alignment.examples.reduce((sum, e) => sum + e.text.length + (e.reason?.length ?? 0) + 60, 0);
  return examples + (alignment.guidance?.length ?? 0) + ALIGNED_RULE_CHARS;
}

/** A run's aligned judges' extra prompt characters, by metric: what its estimate adds to every call of theirs. */
export function alignedPromptChars(judges: {
  customJudges: readonly CustomJudgeDefinition[];
  gEvalJudges: readonly { name: string; alignment?: Alignment }[];
}): Map<string, number> {
  return new Map([
    ...judges.customJudges.flatMap((judge) =>
      judge.alignment ? [[customMetricName(judge), alignmentPromptChars(judge.alignment)] as const] : [],
    ),
    ...judges.gEvalJudges.flatMap((judge) =>
      judge.alignment ? [[gEvalMetricName(judge), alignmentPromptChars(judge.alignment)] as const] : [],
    ),
  ]);
}
