import { z } from "zod";
import { BLEU_TYPES } from "./bleu";
import { ROUGE_TYPES } from "./rouge";

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
