const STATUS_STYLE: Record<string, string> = {
  planning: "bg-slate-100 text-slate-700",
  pending: "bg-slate-100 text-slate-700",
  running: "bg-indigo-100 text-indigo-800",
  "re-judging": "bg-indigo-100 text-indigo-800",
  completed: "bg-emerald-100 text-emerald-800",
  paused: "bg-orange-100 text-orange-900",
  cancelled: "bg-amber-100 text-amber-800",
  failed: "bg-red-100 text-red-800",
};

/**
 * The status a person reads: a run whose finished judgments are being re-judged
 * is "re-judging", not "pending" or "running" (its stored status stays one of
 * those, so the scheduler, the CLI and the exports read it as before).
 */
export function runStatusLabel(status: string, rejudgeTotal: number | null | undefined): string {
  return (status === "pending" || status === "running") && rejudgeTotal != null ? "re-judging" : status;
}

/** A run its budget paused says so beside its status: it waits for a person, not for the database. */
export function RunStatusBadge({
  status,
  rejudgeTotal,
  pauseReason,
}: {
  status: string;
  rejudgeTotal?: number | null;
  pauseReason?: string | null;
}) {
  const base = runStatusLabel(status, rejudgeTotal);
  const label = base === "paused" && pauseReason === "budget" ? "paused: budget reached" : base;
  return (
    <span
      data-testid="run-status-badge"
      className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATUS_STYLE[base] ?? "bg-slate-100"}`}
    >
      {label}
    </span>
  );
}
