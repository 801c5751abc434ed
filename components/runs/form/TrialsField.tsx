import { MAX_TRIALS, MIN_TRIALS } from "@/lib/contract/runLimits";

/**
 * How many times each row is judged (trials). More than one tells a real change from the judge's own noise:
 * the run reports pass@k, pass^k and how far the judge agrees with itself, lists flaky rows, and compare tests
 * each row's mean over its trials. The estimate beside the form counts every trial.
 */
export function TrialsField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
      Trials per row
      <input
        name="trials"
        type="number"
        min={MIN_TRIALS}
        max={MAX_TRIALS}
        step={1}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        title="Judge each row this many times (1–10); each trial is asked anew"
        className="w-20 rounded border border-slate-300 px-2 py-1 text-sm font-normal"
      />
    </label>
  );
}
