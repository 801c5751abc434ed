import { z } from "zod";
import { judgeAgreementSchema } from "./agreementSchemas";

/** One version's agreement on the held-out labels (lib/stats/agreement.ts AgreementSummary). */
const heldOutAgreementSchema = judgeAgreementSchema.pick({
  labelled: true,
  errors: true,
  rawAgreement: true,
  confusion: true,
  kappa: true,
});

/** An aligned judge and its proof, as the alignment's page shows them. */
export const alignmentDetailSchema = z
  .object({
    id: z.string(),
    datasetId: z.string(),
    metric: z.string().meta({ description: "The original judge's metric" }),
    version: z.number().int(),
    judgeName: z.string().meta({ description: "The aligned judge's name, <original>_aligned_v<version>" }),
    alignedMetric: z.string().meta({ description: "What the aligned judge reports as in the runs that use it" }),
    judgeModel: z.string(),
    status: z.enum(["measuring", "measured", "failed", "adopted", "discarded"]),
    progress: z.object({ done: z.number().int(), total: z.number().int() }),
    errorMessage: z.string().nullable(),
    trainingLabels: z.number().int(),
    heldOutLabels: z.number().int(),
    examples: z.number().int().meta({ description: "Training labels shown in the prompt as worked examples" }),
    guidance: z.string().nullable(),
    spent: z.object({
      llmCalls: z.number().int(),
      inputTokens: z.number().int(),
      outputTokens: z.number().int(),
      costUsd: z.number().nullable(),
    }),
    comparison: z
      .object({
        rows: z.number().int(),
        original: heldOutAgreementSchema,
        aligned: heldOutAgreementSchema,
        paired: z.object({
          bothAgree: z.number().int(),
          onlyAAgrees: z.number().int().meta({ description: "Held-out rows only the original gets right" }),
          onlyBAgrees: z.number().int().meta({ description: "Held-out rows only the aligned version gets right" }),
          bothDisagree: z.number().int(),
          pairs: z.number().int(),
          agreementA: z.number().nullable().meta({ description: "The original's raw agreement on the paired rows" }),
          agreementB: z.number().nullable().meta({ description: "The aligned version's, on the same rows" }),
          pValue: z.number().meta({ description: "Exact McNemar on the rows where exactly one version is right" }),
        }),
        alpha: z.number(),
        verdict: z.enum(["agrees more (real)", "no real change", "agrees less (real)"]),
        words: z.string(),
      })
      .nullable()
      .meta({ description: "Both versions on the same held-out labels; null until measured" }),
    definition: z.object({ type: z.enum(["custom", "g_eval"]), judge: z.record(z.string(), z.unknown()) }).meta({
      description:
        "The aligned judge as a run takes it: a custom judge (customJudges) or a G-Eval judge (gEvalJudges), with its alignment",
    }),
    url: z.string().meta({ description: "The alignment's page" }),
  })
  .meta({ id: "Alignment" });
export type AlignmentDetail = z.infer<typeof alignmentDetailSchema>;
