import { z } from "zod";

/**
 * A run's settings of DeepEval's metrics, named after DeepEval's own arguments:
 *
 * - `strictMode` (strict_mode): every DeepEval metric, G-Eval included, scores 1 or 0. The threshold
 *   becomes 1 (0 where lower is better) and any score short of perfect is 0 (any trace of
 *   hallucination, toxicity or bias is 1). G-Eval is asked for a 1-or-0 score outright.
 * - `includeReason` (include_reason, default true): false leaves the overall reason out of the
 *   answer (and so out of the tokens paid for); the verdicts keep theirs.
 * - `penalizeAmbiguousClaims` (faithfulness): an "idk" claim counts against the score, not for it.
 * - `summarizationQuestions` (summarization's `n`, default 5): how many coverage questions are written.
 * - `assessmentQuestions` (summarization's `assessment_questions`): the coverage questions, written by
 *   the user; none are generated then.
 * - `listCap`: the most items (claims, statements, sentences, opinions) one answer may list; past it
 *   the model is told to merge minor ones. Default 40. A list that reaches the cap says so in its
 *   details, since items may have been merged.
 * - `callStructure`: "folded" (default), Assay's one call per row (two for summarization), or "deepeval",
 *   each metric's own sequence of calls as DeepEval makes them (truths, claims, verdicts, reason, …), so a
 *   number can be reproduced when it matters; it costs 2 to 7 calls a row.
 * - `exact` ("DeepEval-exact"): every DeepEval-named metric as DeepEval computes it, at DeepEval's call counts:
 *   DeepEval's call structure, no list cap (DeepEval has none), and DeepEval's defaults where Assay's differ
 *   (BLEU is `bleu1` unless the run names another). docs/metrics.md lists what it changes and what still differs.
 * - `truthsExtractionLimit` (faithfulness, summarization; DeepEval's call structure only): the most truths
 *   taken from each document of the context (each chunk; a summary's source is one), the most important, as
 *   DeepEval asks for them ("the N most important … truths per document").
 */
export const DEFAULT_LIST_CAP = 40;
export const CALL_STRUCTURES = ["folded", "deepeval"] as const;
export type CallStructure = (typeof CALL_STRUCTURES)[number];
export const DEFAULT_SUMMARIZATION_QUESTIONS = 5;
export const MAX_ASSESSMENT_QUESTIONS = 20;

export const deepEvalSettingsSchema = z
  .object({
    exact: z.boolean().optional().meta({
      description:
        "DeepEval-exact: every DeepEval-named metric as DeepEval computes it (DeepEval's calls, no list cap, bleu1 by default)",
    }),
    strictMode: z.boolean().optional().meta({
      description: "DeepEval's strict_mode: scores are 1 or 0 and the threshold is 1 (0 where lower is better)",
    }),
    includeReason: z
      .boolean()
      .optional()
      .meta({ description: "DeepEval's include_reason (default true): false asks for no overall reason" }),
    penalizeAmbiguousClaims: z
      .boolean()
      .optional()
      .meta({ description: "Faithfulness: an ambiguous (idk) claim counts against the score" }),
    summarizationQuestions: z
      .number()
      .int()
      .min(1)
      .max(MAX_ASSESSMENT_QUESTIONS)
      .optional()
      .meta({ description: "Summarization's n: how many coverage questions to write (default 5)" }),
    assessmentQuestions: z
      .array(z.string().trim().min(1).max(400))
      .min(1)
      .max(MAX_ASSESSMENT_QUESTIONS)
      .optional()
      .meta({ description: "Summarization's assessment_questions: closed yes/no questions the source answers yes" }),
    listCap: z
      .number()
      .int()
      .min(5)
      .max(200)
      .optional()
      .meta({ description: "The most items one answer may list (claims, statements, opinions); default 40" }),
    callStructure: z.enum(CALL_STRUCTURES).optional().meta({
      description: "folded (default: one call per row, two for summarization) or deepeval (each metric's own calls)",
    }),
    truthsExtractionLimit: z.number().int().min(1).max(200).optional().meta({
      description:
        "Faithfulness and summarization with DeepEval's call structure: the most truths taken from each document of the context",
    }),
  })
  .strict()
  .superRefine((settings, ctx) => {
    if (!settings.exact) return;
    if (settings.callStructure === "folded")
      ctx.addIssue({
        code: "custom",
        path: ["callStructure"],
        message: "DeepEval-exact makes DeepEval's own calls: leave the call structure unset (or deepeval)",
      });
    if (settings.listCap !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["listCap"],
        message: "DeepEval-exact has no list cap, as DeepEval has none",
      });
  });
export type DeepEvalSettingsInput = z.infer<typeof deepEvalSettingsSchema>;

export type DeepEvalSettings = {
  exact: boolean;
  strictMode: boolean;
  includeReason: boolean;
  penalizeAmbiguousClaims: boolean;
  summarizationQuestions: number;
  assessmentQuestions: string[] | null;
  /** Infinity under DeepEval-exact: no cap, and no word of one in the prompts. */
  listCap: number;
  callStructure: CallStructure;
  truthsExtractionLimit: number | null;
};

export const DEFAULT_DEEPEVAL_SETTINGS: DeepEvalSettings = {
  exact: false,
  strictMode: false,
  includeReason: true,
  penalizeAmbiguousClaims: false,
  summarizationQuestions: DEFAULT_SUMMARIZATION_QUESTIONS,
  assessmentQuestions: null,
  listCap: DEFAULT_LIST_CAP,
  callStructure: "folded",
  truthsExtractionLimit: null,
};

/** The settings as configured (any subset), the rest at DeepEval's defaults. */
export function deepEvalSettings(input?: DeepEvalSettingsInput | null): DeepEvalSettings {
  const exact = input?.exact ?? false;
  return {
    exact,
    strictMode: input?.strictMode ?? DEFAULT_DEEPEVAL_SETTINGS.strictMode,
    includeReason: input?.includeReason ?? DEFAULT_DEEPEVAL_SETTINGS.includeReason,
    penalizeAmbiguousClaims: input?.penalizeAmbiguousClaims ?? DEFAULT_DEEPEVAL_SETTINGS.penalizeAmbiguousClaims,
    summarizationQuestions: input?.summarizationQuestions ?? DEFAULT_DEEPEVAL_SETTINGS.summarizationQuestions,
    assessmentQuestions: input?.assessmentQuestions ?? null,
    listCap: exact ? Number.POSITIVE_INFINITY : (input?.listCap ?? DEFAULT_DEEPEVAL_SETTINGS.listCap),
    callStructure: exact ? "deepeval" : (input?.callStructure ?? DEFAULT_DEEPEVAL_SETTINGS.callStructure),
    truthsExtractionLimit: input?.truthsExtractionLimit ?? null,
  };
}

/** Only the settings that differ from the defaults: what a run stores and an export names. */
export function changedDeepEvalSettings(input?: DeepEvalSettingsInput | null): DeepEvalSettingsInput {
  const settings = deepEvalSettings(input);
  const changed: DeepEvalSettingsInput = {};
  // What DeepEval-exact implies (DeepEval's calls, no cap) is not stored again.
  if (settings.exact) changed.exact = true;
  if (settings.strictMode) changed.strictMode = true;
  if (!settings.includeReason) changed.includeReason = false;
  if (settings.penalizeAmbiguousClaims) changed.penalizeAmbiguousClaims = true;
  if (settings.summarizationQuestions !== DEFAULT_SUMMARIZATION_QUESTIONS)
    changed.summarizationQuestions = settings.summarizationQuestions;
  if (settings.assessmentQuestions) changed.assessmentQuestions = settings.assessmentQuestions;
  if (!settings.exact && settings.listCap !== DEFAULT_LIST_CAP) changed.listCap = settings.listCap;
  if (!settings.exact && settings.callStructure !== "folded") changed.callStructure = settings.callStructure;
  if (settings.truthsExtractionLimit !== null) changed.truthsExtractionLimit = settings.truthsExtractionLimit;
  return changed;
}
