import { z } from "zod";

/**
 * The BLEU a run may score by: `cumulative4`, the standard sentence BLEU (uniform weights over 1- to 4-grams,
 * NLTK's method-1 smoothing, lower-cased words), or DeepEval's `bleu1` … `bleu4`: one n-gram order each, on
 * word_tokenize's tokens, unsmoothed.
 */
export const BLEU_TYPES = ["cumulative4", "bleu1", "bleu2", "bleu3", "bleu4"] as const;
export type BleuType = (typeof BLEU_TYPES)[number];

/** The ROUGE types a run may score by, as Google's rouge_score names them (DeepEval's scorer offers the first three). */
export const ROUGE_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"] as const;
export type RougeType = (typeof ROUGE_TYPES)[number];

/** A run's settings of the statistical scorers, as the run form, the CLI and the API set them; unset ones default. */
export const statisticalSettingsSchema = z
  .object({
    rougeType: z
      .enum(ROUGE_TYPES)
      .optional()
      .meta({ description: "Which ROUGE F-measure is rouge's score: rouge1, rouge2, rougeL (default) or rougeLsum" }),
    bleuType: z.enum(BLEU_TYPES).optional().meta({
      description: "Which BLEU is bleu's score: cumulative4 (default; smoothed BLEU-4) or DeepEval's bleu1 … bleu4",
    }),
  })
  .strict();
export type StatisticalSettings = z.infer<typeof statisticalSettingsSchema>;
