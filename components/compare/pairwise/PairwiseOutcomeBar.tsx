import type { PairwiseSummary } from "@/lib/stats/pairwiseSummary";

/**
 * B's wins, the ties and B's losses (A's wins) as one bar of the pairs, each part labelled with its count: the
 * result at a glance, before its words and interval. Position-dependent ties are the hatched part of the ties.
 */
export function PairwiseOutcomeBar({
  summary,
  baselineName,
  candidateName,
}: {
  summary: PairwiseSummary;
  baselineName: string;
  candidateName: string;
}) {
  const total = summary.pairs;
  if (total === 0) return null;
  const plainTies = summary.ties - summary.positionDependent;
  const parts = [
    { key: "wins", count: summary.wins, label: `B (${candidateName}) better`, className: "bg-emerald-500" },
    { key: "ties", count: plainTies, label: "tie", className: "bg-slate-300" },
    {
      key: "position",
      count: summary.positionDependent,
      label: "tie, position-dependent",
      className:
        "bg-amber-300 bg-[repeating-linear-gradient(45deg,transparent,transparent_4px,rgba(255,255,255,0.5)_4px,rgba(255,255,255,0.5)_8px)]",
    },
    { key: "losses", count: summary.losses, label: `A (${baselineName}) better`, className: "bg-rose-500" },
  ].filter((part) => part.count > 0);
  return (
    <figure className="space-y-1" data-testid="pairwise-outcome-bar">
      <div
        className="flex h-5 w-full overflow-hidden rounded"
        role="img"
        aria-label={parts.map((p) => `${p.label}: ${p.count}`).join(", ")}
      >
        {parts.map((part) => (
          <div
            key={part.key}
            className={`${part.className} flex items-center justify-center text-[11px] font-medium text-slate-900`}
            style={{ width: `${(part.count / total) * 100}%` }}
            title={`${part.label}: ${part.count} of ${total} pairs`}
          >
            {part.count / total >= 0.06 ? part.count : ""}
          </div>
        ))}
      </div>
      <figcaption className="flex flex-wrap gap-x-4 text-xs text-slate-600">
        {parts.map((part) => (
          <span key={part.key} className="flex items-center gap-1">
            <span className={`inline-block h-2.5 w-2.5 rounded-sm ${part.className}`} aria-hidden />
            {part.label}: {part.count} ({((part.count / total) * 100).toFixed(1)}%)
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
