/** A determinate progress bar; value is a fraction in [0, 1]. */
export function ProgressBar({
  value,
  label,
  tone = "indigo",
}: {
  value: number;
  label: string;
  tone?: "indigo" | "emerald";
}) {
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <div
        className={`h-full rounded-full transition-[width] duration-200 ${tone === "emerald" ? "bg-emerald-500" : "bg-indigo-500"}`}
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}
