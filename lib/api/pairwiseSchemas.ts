import { z } from "zod";
import { PAIRWISE_ORDERS, pairwiseCriterionSchema } from "@/lib/contract/pairwise";
import { runBudgetSchema } from "@/lib/engine/budgetFields";

const rate = z
  .object({ value: z.number(), low: z.number(), high: z.number(), of: z.number().int() })
  .nullable()
  .meta({ id: "PairwiseRate" });

export const pairwiseCriterionResultSchema = z
  .object({
    criterion: z.string(),
    metric: z.string().meta({ example: "pairwise/overall" }),
    instructions: z.string().nullable(),
    verdict: z.enum(["better", "worse", "noise", "n/a", "pending"]).meta({
      description:
        "The sign test's (adjusted with the comparison's metrics in compare): better when B wins significantly more pairs than it loses",
    }),
    words: z
      .string()
      .meta({ example: "Real improvement: B wins 64.0% of 500 pairs, ties as half (95% CI 60.1 to 67.7; …)" }),
    pairs: z.number().int().meta({ description: "Pairs with a verdict (both orders judged, in both-order mode)" }),
    wins: z.number().int().meta({ description: "Pairs B (the candidate) won" }),
    losses: z.number().int().meta({ description: "Pairs A (the baseline) won" }),
    ties: z.number().int(),
    positionDependent: z.number().int().meta({ description: "Ties whose two orders named different winners" }),
    winRate: rate.meta({ description: "B's win rate, ties as half, with its 95% interval" }),
    winRateWithoutTies: rate,
    signTestP: z.number().meta({ description: "Exact two-sided sign test of wins against losses" }),
    adjustedP: z.number().nullable(),
    positionConsistency: rate.meta({
      description: "Share of pairs with the same verdict in both orders (null in one-order mode)",
    }),
    firstShownWinRate: rate.meta({
      description: "Of judgments naming a winner, the share won by the response shown first",
    }),
    longerWinRate: rate.meta({
      description: "Of judgments naming a winner between responses of different lengths, the share won by the longer",
    }),
    tieRate: rate,
    statuses: z.object({
      pending: z.number().int(),
      done: z.number().int(),
      error: z.number().int(),
      skipped: z.number().int(),
    }),
  })
  .meta({ id: "PairwiseCriterionResult" });

export const pairwiseDetailSchema = z
  .object({
    id: z.string(),
    baselineRunId: z.string().meta({ description: "A" }),
    candidateRunId: z.string().meta({ description: "B" }),
    status: z.enum(["planning", "judging", "completed", "failed"]),
    stopped: z.boolean().meta({ description: "Judging, but no process has shown a sign of life for 30 s: resume it" }),
    orders: z.enum(PAIRWISE_ORDERS),
    seed: z.string(),
    judgeProvider: z.string(),
    judgeModel: z.string(),
    progress: z.object({ done: z.number().int(), total: z.number().int() }),
    errorMessage: z.string().nullable(),
    budget: z.object({ calls: z.number().nullable(), tokens: z.number().nullable(), usd: z.number().nullable() }),
    spent: z.object({
      llmCalls: z.number().int(),
      inputTokens: z.number().int(),
      outputTokens: z.number().int(),
      costUsd: z.number().nullable(),
    }),
    selfPreference: z.string().nullable(),
    criteria: z.array(pairwiseCriterionResultSchema),
    url: z.string(),
  })
  .meta({ id: "PairwiseComparison" });
export type PairwiseDetail = z.output<typeof pairwiseDetailSchema>;

export const startPairwiseBodySchema = z.object({
  baseline: z
    .string()
    .min(1)
    .max(200)
    .meta({ description: "The baseline run (A); the path's run is the candidate (B)" }),
  criteria: z.array(pairwiseCriterionSchema).max(10).optional().meta({
    description: "The built-in `overall` and custom criteria ({name, instructions}); `overall` alone by default",
  }),
  orders: z.enum(PAIRWISE_ORDERS).default("both").meta({
    description:
      "both: every pair judged in both orders (the default); one: once, in an order drawn per row from `seed` (cheaper, weaker)",
  }),
  seed: z.string().min(1).max(100).optional(),
  concurrency: z.number().int().min(1).max(64).optional(),
  budget: runBudgetSchema.optional().meta({
    description:
      "Its own budget, as a run's ({calls, tokens, usd}, each optional): judging stops once it is reached, keeping what it judged; resume with a raised one",
  }),
});

export const resumePairwiseBodySchema = z
  .object({ budget: runBudgetSchema.optional().meta({ description: "A new budget, replacing the old one" }) })
  .default({});
