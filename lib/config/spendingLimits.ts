import { z } from "zod";
import type { RunBudget } from "@/lib/db/runs/runBudget";
import { priceFor, type LlmPrices } from "@/lib/llm/pricing";

/**
 * Server-wide ceilings on what runs may spend, set by whoever runs the server (environment variables), above
 * every run's own budget and every role: the server checks them wherever spending starts or grows (starting,
 * resuming, re-judging a run, raising its budget, and the CLI for the first two).
 */
export type SpendingLimits = {
  /** ASSAY_MAX_RUN_USD: every run carries a cost budget of at most this. */
  maxRunUsd: number | null;
  /** ASSAY_ALLOWED_MODELS: the judge and generation models runs may use (the offline judge is always allowed). */
  allowedModels: string[] | null;
  /** ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER: runs planning, queued or running per signed-in user. */
  maxRunsInProgressPerUser: number | null;
};

export const NO_SPENDING_LIMITS: SpendingLimits = {
  maxRunUsd: null,
  allowedModels: null,
  maxRunsInProgressPerUser: null,
};

type Env = Record<string, string | undefined>;

/** An unset or blank variable is no limit. */
const unsetIsNull = (value: unknown) => (value === undefined || String(value).trim() === "" ? null : value);

const envSchema = z.object({
  ASSAY_MAX_RUN_USD: z.preprocess(
    unsetIsNull,
    z.coerce
      .number({ error: "ASSAY_MAX_RUN_USD must be a number of US dollars, e.g. 5" })
      .positive({ error: "ASSAY_MAX_RUN_USD must be more than 0" })
      .max(1_000_000, { error: "ASSAY_MAX_RUN_USD must be at most 1,000,000" })
      .nullable(),
  ),
  ASSAY_ALLOWED_MODELS: z.preprocess(
    (value) => {
      const names = String(unsetIsNull(value) ?? "")
        .split(",")
        .map((name) => name.trim())
        .filter(Boolean);
      return names.length > 0 ? names : null;
    },
    z.array(z.string().max(200)).nullable(),
  ),
  ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER: z.preprocess(
    unsetIsNull,
    z.coerce
      .number({ error: "ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER must be a whole number, e.g. 3" })
      .int({ error: "ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER must be a whole number, e.g. 3" })
      .min(1, { error: "ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER must be at least 1" })
      .nullable(),
  ),
});

/** The limits in force. Throws an Error naming the variable at fault (a limit misread must not become no limit). */
export function readSpendingLimits(env: Env = process.env): SpendingLimits {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => issue.message).join("; "));
  return {
    maxRunUsd: parsed.data.ASSAY_MAX_RUN_USD,
    allowedModels: parsed.data.ASSAY_ALLOWED_MODELS,
    maxRunsInProgressPerUser: parsed.data.ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER,
  };
}

export function formatLimitUsd(usd: number): string {
  return `$${usd.toFixed(2)}`;
}

/** The limits in one sentence for the run form, or null when there are none. */
export function describeSpendingLimits(limits: SpendingLimits): string | null {
  const parts = [
    limits.maxRunUsd !== null
      ? `at most ${formatLimitUsd(limits.maxRunUsd)} per run (an empty cost field runs with that)`
      : null,
    limits.allowedModels !== null ? `models: ${limits.allowedModels.join(", ")}` : null,
    limits.maxRunsInProgressPerUser !== null
      ? `at most ${limits.maxRunsInProgressPerUser} run${limits.maxRunsInProgressPerUser === 1 ? "" : "s"} in progress per user`
      : null,
  ].filter((part) => part !== null);
  return parts.length > 0 ? `This server allows ${parts.join("; ")}.` : null;
}

/** The models a run calls: its judge (provider "heuristic" is the offline judge) and its generation model, if any. */
export type RunModels = { judge: { provider: string; model: string }; generationModel: string | null };

function modelsCalled(models: RunModels): string[] {
  return [...(models.judge.provider === "heuristic" ? [] : [models.judge.model]), models.generationModel].filter(
    (model): model is string => model !== null,
  );
}

/**
 * Why a run on these models with this budget may not spend, or the budget it runs with: a run without a cost
 * budget gets ASSAY_MAX_RUN_USD as its budget, one above it is refused when `typed` (the user asked for it) and
 * lowered to it otherwise (a run stored before the limit was set, resumed). Each refusal names the limit and its value.
 */
export function checkRunSpending(
  request: { budget: RunBudget; models: RunModels; typed: boolean },
  limits: SpendingLimits,
  prices: LlmPrices,
): { ok: true; budget: RunBudget } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const called = modelsCalled(request.models);
  if (limits.allowedModels !== null) {
    for (const model of called)
      if (!limits.allowedModels.includes(model))
        problems.push(
          `${model} is not among the models this server allows (ASSAY_ALLOWED_MODELS: ${limits.allowedModels.join(", ")}). Choose one of them, or the offline heuristic judge.`,
        );
  }
  let usd = request.budget.usd;
  if (limits.maxRunUsd !== null) {
    const max = formatLimitUsd(limits.maxRunUsd);
    for (const model of called)
      if (priceFor(model, prices) === null)
        problems.push(
          `${model} has no price in ASSAY_LLM_PRICES, and this server allows at most ${max} per run (ASSAY_MAX_RUN_USD): a run on it could not be held to that. Ask whoever runs the server to set its price.`,
        );
    if (usd !== null && usd > limits.maxRunUsd && request.typed)
      problems.push(
        `The cost budget $${usd} is above this server's limit of ${max} per run (ASSAY_MAX_RUN_USD). Set ${max} or less, or leave it empty for ${max}.`,
      );
    usd = usd === null ? limits.maxRunUsd : Math.min(usd, limits.maxRunUsd);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, budget: { ...request.budget, usd } };
}

/** The refusal when a user already has as many runs in progress as the server allows, or null. */
export function runsInProgressProblem(inProgress: number, limits: SpendingLimits): string | null {
  const max = limits.maxRunsInProgressPerUser;
  if (max === null || inProgress < max) return null;
  return `You have ${inProgress} run${inProgress === 1 ? "" : "s"} in progress, and this server allows at most ${max} per user (ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER). Wait for one to finish, or cancel one.`;
}
