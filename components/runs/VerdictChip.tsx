import { formatMetricValue } from "@/lib/charts/format";

export type VerdictView = { status: string; rating: string | null; score: number | null; passed: boolean | null };

/** yes / no / error / skipped, or a score, coloured by pass or fail. */
/** `metric` gives a score its unit (seconds, tokens or a percentage). */
export function VerdictChip({
  verdict,
  metric,
  title,
}: {
  verdict: VerdictView | undefined;
  metric?: string;
  title?: string;
}) {
  const base = "inline-block min-w-9 rounded px-1.5 py-0.5 text-center text-[11px] font-medium tabular-nums";
  if (!verdict)
    return (
      <span className={`${base} text-slate-400`} title={title}>
        —
      </span>
    );
  if (verdict.status === "error")
    return (
      <span className={`${base} bg-red-100 text-red-800`} title={title}>
        error
      </span>
    );
  if (verdict.status === "skipped")
    return (
      <span className={`${base} bg-slate-100 text-slate-400`} title={title}>
        skip
      </span>
    );
  if (verdict.status !== "done")
    return (
      <span className={`${base} bg-indigo-50 text-indigo-700`} title={title}>
        …
      </span>
    );
  const tone =
    verdict.passed === false
      ? "bg-rose-100 text-rose-800"
      : verdict.passed === true
        ? "bg-emerald-100 text-emerald-800"
        : "bg-slate-100 text-slate-700";
  const text = verdict.rating ?? (verdict.score === null ? "—" : formatMetricValue(metric ?? "", verdict.score));
  return (
    <span className={`${base} ${tone}`} title={title}>
      {text}
    </span>
  );
}
