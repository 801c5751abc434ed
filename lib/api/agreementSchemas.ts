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

const alphaSchema = z.union([
  z.object({
    defined: z.literal(true),
    alpha: z.number(),
    observed: z.number().meta({ description: "D_o, the observed disagreement per pairable value" }),
    expected: z.number().meta({ description: "D_e, the disagreement expected by chance" }),
    pairable: z.number().meta({ description: "n, the pairable values (labels on rows with two or more)" }),
    units: z.number().int(),
  }),
  z.object({ defined: z.literal(false), reason: z.string(), pairable: z.number(), units: z.number().int() }),
]);
const intervalSchema = z.object({ low: z.number(), high: z.number(), resamples: z.number().int() }).nullable();

/** Agreement between the people who labelled one metric, and the run's judge held to it (lib/labels/peopleAgreementReport.ts). */
export const peopleAgreementSchema = z
  .object({
    metric: z.string(),
    kind: z.enum(["rating", "score"]),
    labellers: z.array(z.object({ id: z.string(), name: z.string(), labels: z.number().int() })),
    leftOut: z.number().int().meta({ description: "Labellers beyond the first 40 by labels given, in no figure" }),
    agreement: z.object({
      level: z.enum(["nominal", "ordinal", "interval", "ratio"]),
      alpha: alphaSchema.meta({
        description: "Krippendorff's α at the label's level (nominal yes/no, interval scores)",
      }),
      byLevel: z.record(z.string(), alphaSchema),
      krippendorffInterval: intervalSchema.meta({
        description:
          "95 % interval by Krippendorff's own bootstrap of pairs (2011 note; thought too narrow by its critics)",
      }),
      unitsInterval: intervalSchema.meta({ description: "95 % percentile interval resampling rows" }),
      fleiss: z.union([
        z.object({
          defined: z.literal(true),
          kappa: z.number(),
          observed: z.number(),
          chance: z.number(),
          raters: z.number().int(),
          units: z.number().int(),
        }),
        z.object({
          defined: z.literal(false),
          reason: z.string(),
          raters: z.number().int().nullable(),
          units: z.number().int(),
        }),
      ]),
      rows: z.number().int(),
      pairableRows: z.number().int(),
      labels: z.number().int(),
      perLabeller: z.array(z.number().int()),
      pairs: z.array(
        z.object({
          a: z.number().int(),
          b: z.number().int(),
          rows: z.number().int(),
          agreement: z.number().nullable(),
          alpha: alphaSchema,
        }),
      ),
    }),
    gold: z.object({
      single: z.number().int(),
      majority: z.number().int(),
      median: z.number().int(),
      adjudicated: z.number().int(),
      tied: z.number().int(),
      disagreed: z.number().int(),
    }),
    judge: z
      .object({
        alphaWithJudge: alphaSchema,
        pairs: z.array(
          z.object({
            labeller: z.number().int(),
            rows: z.number().int(),
            agreement: z.number().nullable(),
            alpha: alphaSchema,
          }),
        ),
        altTest: z.object({
          epsilon: z.number(),
          q: z.number(),
          scoring: z.enum(["accuracy", "neg_rmse"]),
          labellers: z.array(
            z.object({
              labeller: z.number().int(),
              rows: z.number().int(),
              advantage: z.number(),
              pValue: z.number().nullable(),
              beaten: z.boolean().nullable(),
            }),
          ),
          tested: z.number().int(),
          winningRate: z.number().nullable(),
          advantageProbability: z.number().nullable(),
          passed: z.boolean().nullable(),
          note: z.string().nullable(),
        }),
      })
      .nullable(),
  })
  .meta({ id: "PeopleAgreement" });

/** A run's agreement as the API answers it (GET /api/v1/runs/{runId}/agreement) and the remote CLI prints it. */
export const runAgreementSchema = z
  .object({
    judges: z.array(judgeAgreementSchema),
    people: z
      .array(peopleAgreementSchema)
      .meta({ description: "Metrics more than one person labelled: how far they agree, and the judge held to it" }),
  })
  .meta({ id: "RunAgreement" });

/** The agreement's query: the alternative annotator test's ε. */
export const agreementQuerySchema = z.object({
  epsilon: z.coerce.number().min(0).max(1).optional().meta({
    description: "The alternative annotator test's ε: 0.2 for expert labellers, 0.15 skilled (default), 0.1 crowd",
  }),
});
