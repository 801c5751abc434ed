import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ConcurrencyField } from "@/components/runs/form/ConcurrencyField";
import { mayChangeRunBudget, runBudgetRefusal } from "@/lib/auth/runOwnership";
import type { AuthUser } from "@/lib/auth/guard";
import {
  checkRunSpending,
  describeSpendingLimits,
  NO_SPENDING_LIMITS,
  readSpendingLimits,
  runsInProgressProblem,
} from "@/lib/config/spendingLimits";
import { NO_BUDGET } from "@/lib/db/runs/runBudget";

const PRICES = { "gpt-4.1-mini": { input: 0.4, output: 1.6 } };
const judge = (model: string) => ({ provider: "openai", model });
const HEURISTIC = { provider: "heuristic", model: "heuristic" };

describe("server-wide spending limits from the environment", () => {
  it("reads ASSAY_MAX_RUN_USD, ASSAY_ALLOWED_MODELS and ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER; unset or blank is no limit", () => {
    expect(readSpendingLimits({})).toEqual(NO_SPENDING_LIMITS);
    expect(readSpendingLimits({ ASSAY_MAX_RUN_USD: " ", ASSAY_ALLOWED_MODELS: " , " })).toEqual(NO_SPENDING_LIMITS);
    expect(
      readSpendingLimits({
        ASSAY_MAX_RUN_USD: "5",
        ASSAY_ALLOWED_MODELS: "gpt-4.1-mini, gpt-4.1 ,",
        ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER: "2",
      }),
    ).toEqual({ maxRunUsd: 5, allowedModels: ["gpt-4.1-mini", "gpt-4.1"], maxRunsInProgressPerUser: 2 });
  });

  it("refuses a misread limit with the variable named, rather than running without it", () => {
    expect(() => readSpendingLimits({ ASSAY_MAX_RUN_USD: "five" })).toThrow(/ASSAY_MAX_RUN_USD must be a number/);
    expect(() => readSpendingLimits({ ASSAY_MAX_RUN_USD: "-1" })).toThrow(/ASSAY_MAX_RUN_USD must be more than 0/);
    expect(() => readSpendingLimits({ ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER: "1.5" })).toThrow(
      /ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER must be a whole number/,
    );
  });

  it("says the limits in one sentence for the run form", () => {
    expect(describeSpendingLimits(NO_SPENDING_LIMITS)).toBeNull();
    expect(
      describeSpendingLimits({ maxRunUsd: 5, allowedModels: ["gpt-4.1-mini", "gpt-4.1"], maxRunsInProgressPerUser: 1 }),
    ).toBe(
      "This server allows at most $5.00 per run (an empty cost field runs with that); models: gpt-4.1-mini, gpt-4.1; at most 1 run in progress per user.",
    );
  });
});

describe("checkRunSpending", () => {
  const limits = { maxRunUsd: 5, allowedModels: ["gpt-4.1-mini"], maxRunsInProgressPerUser: null };

  it("gives a run without a cost budget the server's limit as its budget", () => {
    expect(
      checkRunSpending(
        {
          budget: { ...NO_BUDGET, calls: 100 },
          models: { judge: judge("gpt-4.1-mini"), generationModel: null },
          typed: true,
        },
        limits,
        PRICES,
      ),
    ).toEqual({ ok: true, budget: { calls: 100, tokens: null, usd: 5 } });
  });

  it("refuses a typed budget above the limit, and lowers a stored one to it", () => {
    const request = {
      budget: { ...NO_BUDGET, usd: 10 },
      models: { judge: judge("gpt-4.1-mini"), generationModel: null },
    };
    expect(checkRunSpending({ ...request, typed: true }, limits, PRICES)).toEqual({
      ok: false,
      problems: [
        "The cost budget $10 is above this server's limit of $5.00 per run (ASSAY_MAX_RUN_USD). Set $5.00 or less, or leave it empty for $5.00.",
      ],
    });
    expect(checkRunSpending({ ...request, typed: false }, limits, PRICES)).toEqual({
      ok: true,
      budget: { calls: null, tokens: null, usd: 5 },
    });
  });

  it("refuses judge and generation models off the allow-list, and unpriced ones under a limit in dollars; the offline judge passes", () => {
    const refused = checkRunSpending(
      { budget: NO_BUDGET, models: { judge: judge("gpt-4o"), generationModel: "gpt-4.1-mini" }, typed: true },
      { ...limits, allowedModels: ["gpt-4.1-mini", "gpt-4o"] },
      PRICES,
    );
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.problems).toEqual([
      "gpt-4o has no price in ASSAY_LLM_PRICES, and this server allows at most $5.00 per run (ASSAY_MAX_RUN_USD): a run on it could not be held to that. Ask whoever runs the server to set its price.",
    ]);
    const offList = checkRunSpending(
      { budget: NO_BUDGET, models: { judge: HEURISTIC, generationModel: "gpt-4o" }, typed: true },
      { ...limits, maxRunUsd: null },
      PRICES,
    );
    expect(!offList.ok && offList.problems).toEqual([
      "gpt-4o is not among the models this server allows (ASSAY_ALLOWED_MODELS: gpt-4.1-mini). Choose one of them, or the offline heuristic judge.",
    ]);
    expect(
      checkRunSpending(
        { budget: NO_BUDGET, models: { judge: HEURISTIC, generationModel: null }, typed: true },
        limits,
        {},
      ).ok,
    ).toBe(true);
  });

  it("counts runs in progress against ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER", () => {
    const max2 = { ...NO_SPENDING_LIMITS, maxRunsInProgressPerUser: 2 };
    expect(runsInProgressProblem(1, max2)).toBeNull();
    expect(runsInProgressProblem(2, max2)).toBe(
      "You have 2 runs in progress, and this server allows at most 2 per user (ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER). Wait for one to finish, or cancel one.",
    );
    expect(runsInProgressProblem(50, NO_SPENDING_LIMITS)).toBeNull();
  });
});

describe("who may change a run's budget", () => {
  const user = (id: string, role: AuthUser["role"]): AuthUser => ({ id, name: id, email: null, role, local: false });

  it("its creator or an admin; not another runner, and not a runner on a run with no recorded creator", () => {
    expect(mayChangeRunBudget(user("rita", "runner"), { createdById: "rita" })).toBe(true);
    expect(mayChangeRunBudget(user("rita", "runner"), { createdById: "olga" })).toBe(false);
    expect(mayChangeRunBudget(user("rita", "runner"), { createdById: null })).toBe(false);
    expect(mayChangeRunBudget(user("ada", "admin"), { createdById: "olga" })).toBe(true);
    expect(runBudgetRefusal("Olga")).toBe("Only the run's creator (Olga) or an admin can change its budget.");
  });
});

describe("the run form's concurrency field", () => {
  it("notes a value above the endpoint's in-flight limit, and says nothing at or under it", () => {
    const above = renderToStaticMarkup(createElement(ConcurrencyField, { maxInFlight: 8, defaultValue: 16 }));
    expect(above).toContain(
      "16 calls in flight is above this endpoint&#x27;s limit of 8 calls in flight (ASSAY_LLM_MAX_IN_FLIGHT); at most 8 will run at once.",
    );
    expect(renderToStaticMarkup(createElement(ConcurrencyField, { maxInFlight: 8, defaultValue: 8 }))).not.toContain(
      "ASSAY_LLM_MAX_IN_FLIGHT",
    );
    expect(
      renderToStaticMarkup(createElement(ConcurrencyField, { maxInFlight: null, defaultValue: 64 })),
    ).not.toContain("ASSAY_LLM_MAX_IN_FLIGHT");
  });
});
