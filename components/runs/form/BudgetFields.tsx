import type { RunBudget } from "@/lib/db/runs/runBudget";

const FIELD = "w-28 rounded border border-slate-300 px-2 py-1 text-sm font-normal";

/** The three limits, in the form field names lib/engine/budgetFields.ts reads. */
const LIMITS = [
  { key: "calls", name: "budgetCalls", label: "LLM calls", min: 1, step: 1, inputMode: "numeric" },
  { key: "tokens", name: "budgetTokens", label: "Tokens", min: 1, step: 1, inputMode: "numeric" },
  { key: "usd", name: "budgetUsd", label: "Cost (USD)", min: 0.01, step: 0.01, inputMode: "decimal" },
] as const satisfies readonly {
  key: keyof RunBudget;
  name: string;
  label: string;
  min: number;
  step: number;
  inputMode: "numeric" | "decimal";
}[];

/**
 * A run's budget: LLM calls, tokens and US dollars, each optional (empty is no limit). The run pauses
 * when it reaches any of them and resumes once the budget is raised. Read by lib/engine/budgetFields.ts.
 */
export function BudgetFields({ current, idPrefix }: { current?: RunBudget; idPrefix: string }) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      {LIMITS.map((limit) => (
        <label
          key={limit.key}
          htmlFor={`${idPrefix}-${limit.key}`}
          className="flex flex-col gap-1 text-xs font-medium text-slate-600"
        >
          {limit.label}
          <input
            id={`${idPrefix}-${limit.key}`}
            name={limit.name}
            type="number"
            min={limit.min}
            step={limit.step}
            inputMode={limit.inputMode}
            placeholder="no limit"
            defaultValue={current?.[limit.key] ?? ""}
            className={FIELD}
          />
        </label>
      ))}
    </div>
  );
}
