const STATUS_STYLE: Record<string, string> = {
  pending: "bg-slate-100 text-slate-700",
  running: "bg-indigo-100 text-indigo-800",
  completed: "bg-emerald-100 text-emerald-800",
  cancelled: "bg-amber-100 text-amber-800",
  failed: "bg-red-100 text-red-800",
};

export function RunStatusBadge({ status }: { status: string }) {
  return (
    <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATUS_STYLE[status] ?? "bg-slate-100"}`}>
      {status}
    </span>
  );
}
