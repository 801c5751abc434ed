import { z } from "zod";

const undefinedBecause = z.object({ defined: z.literal(false), reason: z.string() });

/** One judge's agreement with the human labels, as lib/db/labels/agreementQueries' JudgeAgreement. */
export const judgeAgreementSchema = z
  .object({
    metric: z.string(),
    kind: z.enum(["rating", "score"]),
    perChunk: z.boolean(),
    labelled: z.number().int().meta({ description: "Labels with a judge verdict: the confusion matrix's total" }),
    errors: z.number().int().meta({ description: "Labelled rows the judge errored on: beside, never in the matrix" }),
    unjudged: z.number().int(),
    otherResponse: z
      .number()
      .int()
      .meta({ description: "Labels given on another response than the run judged: left out" }),
    rawAgreement: z.number().nullable(),
    confusion: z
      .object({ yesYes: z.number().int(), yesNo: z.number().int(), noYes: z.number().int(), noNo: z.number().int() })
      .meta({ description: "Judge then human: yesNo is the judge yes and the person no" }),
    kappa: z.union([
      z.object({
        defined: z.literal(true),
        kappa: z.number(),
        low: z.number(),
        high: z.number(),
        standardError: z.number(),
        intervalNote: z.string().nullable(),
      }),
      undefinedBecause,
    ]),
    scores: z
      .object({
        pairs: z.number().int(),
        spearman: z.union([z.object({ defined: z.literal(true), rho: z.number() }), undefinedBecause]),
        meanAbsoluteDifference: z.number().nullable(),
      })
      .nullable(),
  })
  .meta({ id: "JudgeAgreement" });

/** A run's agreement as the API answers it (GET /api/v1/runs/{runId}/agreement) and the remote CLI prints it. */
export const runAgreementSchema = z.object({ judges: z.array(judgeAgreementSchema) }).meta({ id: "RunAgreement" });
