import { VerdictChip, type VerdictView } from "@/components/runs/VerdictChip";
import { InertMarkdown } from "@/components/content/InertMarkdown";

export type TrialVerdict = VerdictView & {
  trial: number;
  rationale: string | null;
  errorMessage: string | null;
};

/**
 * Every trial of one metric on a row (a run with trials), in trial order: its verdict and rationale, and, when
 * the run generates, the response that trial judged. Why a row is flaky is read here: the trials side by side.
 */
export function TrialVerdicts({
  metric,
  trials,
  responses,
}: {
  metric: string;
  trials: TrialVerdict[];
  /** A generating run's response of each trial, by trial. */
  responses?: ReadonlyMap<number, string | null>;
}) {
  const judged = trials.filter((t) => t.status === "done" && t.passed !== null);
  const passed = judged.filter((t) => t.passed).length;
  const flaky = passed > 0 && passed < judged.length;
  return (
    <div className="mt-2 border-t border-slate-100 pt-2" data-testid="trial-verdicts">
      <p className="text-xs font-medium text-slate-600">
        Trials: {passed} of {judged.length} passed
        {flaky && <span className="ml-1 rounded bg-amber-100 px-1 text-amber-900">flaky</span>}
      </p>
      <ol className="mt-1 space-y-1">
        {trials.map((trial) => (
          <li key={trial.trial} className="flex gap-2 text-xs text-slate-700" data-testid="trial-verdict">
            <span className="w-12 shrink-0 text-slate-500">Trial {trial.trial}</span>
            <VerdictChip verdict={trial} metric={metric} />
            <div className="min-w-0">
              <p className="whitespace-pre-wrap">{trial.errorMessage ?? trial.rationale ?? ""}</p>
              {responses?.has(trial.trial) && (
                <details className="mt-0.5">
                  <summary className="cursor-pointer text-slate-500">This trial&apos;s response</summary>
                  <div className="mt-1 rounded bg-slate-50 p-2">
                    <InertMarkdown text={responses.get(trial.trial) ?? "(no response)"} />
                  </div>
                </details>
              )}
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}
