import type { RunBudget } from "@/lib/db/runBudget";

const FIELD = "w-28 rounded border border-slate-300 px-2 py-1 text-sm font-normal";

/**
 * A run's budget: LLM calls, tokens and US dollars, each optional (empty is no limit). The run pauses
 * when it reaches any of them and resumes once the budget is raised. Read by lib/engine/budgetFields.ts.
 */
export function BudgetFields({ current, idPrefix }: { current?: RunBudget; idPrefix: string }) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <label htmlFor={`${idPrefix}-calls`} className="flex flex-col gap-1 text-xs font-medium text-slate-600">
        LLM calls
        <input
          id={`${idPrefix}-calls`}
          name="budgetCalls"
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          placeholder="no limit"
          defaultValue={current?.calls ?? ""}
          className={FIELD}
        />
      </label>
      <label htmlFor={`${idPrefix}-tokens`} className="flex flex-col gap-1 text-xs font-medium text-slate-600">
        Tokens
        <input
          id={`${idPrefix}-tokens`}
          name="budgetTokens"
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          placeholder="no limit"
          defaultValue={current?.tokens ?? ""}
          className={FIELD}
        />
      </label>
      <label htmlFor={`${idPrefix}-usd`} className="flex flex-col gap-1 text-xs font-medium text-slate-600">
        Cost (USD)
        <input
          id={`${idPrefix}-usd`}
          name="budgetUsd"
          type="number"
          min={0.01}
          step={0.01}
          inputMode="decimal"
          placeholder="no limit"
          defaultValue={current?.usd ?? ""}
          className={FIELD}
        />
      </label>
    </div>
  );
}
