import { LinkButton } from "@/components/ui/Button";
import { KeyboardNav } from "@/components/ui/KeyboardNav";
import { formatInteger } from "@/lib/charts/format";

/**
 * Where a flipped row stands in the flip list it was opened from ("flip 3 of 17 · regressions on correctness"),
 * and the keys that step through that list in its order: j the next flip, k the previous one, n the next
 * regression (from the first again after the last).
 */
export function FlipSteps({
  position,
  total,
  filter,
  previousHref,
  nextHref,
  nextRegressionHref,
}: {
  position: number | null;
  total: number;
  filter: { metric?: string; direction?: "regressions" | "improvements" };
  previousHref: string | null;
  nextHref: string | null;
  nextRegressionHref: string | null;
}) {
  // A pairwise criterion's list is of pairs its judge decided: B lost (its regressions) or B won.
  const pairwise = filter.metric?.startsWith("pairwise/") ?? false;
  const which = pairwise
    ? filter.direction === "regressions"
      ? "B lost"
      : filter.direction === "improvements"
        ? "B won"
        : "decided pairs"
    : (filter.direction ?? "flips");
  const on = filter.metric ? ` on ${filter.metric.split("/").pop()}` : "";
  const item = pairwise ? "pair" : "flip";
  const loss = pairwise ? "pair B lost" : "regression";
  const place =
    position === null
      ? `not in the list (${formatInteger(total)} ${which}${on})`
      : `${pairwise ? "pair" : "flip"} ${formatInteger(position)} of ${formatInteger(total)}${filter.direction || filter.metric ? ` · ${which}${on}` : ""}`;
  return (
    <div className="flex flex-col items-end gap-1">
      <KeyboardNav nextHref={nextHref} previousHref={previousHref} nextFailedHref={nextRegressionHref} />
      <p className="text-sm text-slate-600" data-testid="flip-place">
        {place}
      </p>
      <nav className="flex items-center gap-2 text-sm" aria-label="Flip navigation">
        {previousHref && (
          <LinkButton href={previousHref} size="sm">
            ← Previous {item} <kbd className="ml-1 text-xs text-slate-400">k</kbd>
          </LinkButton>
        )}
        {nextHref && (
          <LinkButton href={nextHref} size="sm">
            Next {item} <kbd className="ml-1 text-xs text-slate-400">j</kbd> →
          </LinkButton>
        )}
        {nextRegressionHref && (
          <LinkButton href={nextRegressionHref} variant="attention" size="sm">
            Next {loss} <kbd className="ml-1 text-xs">n</kbd>
          </LinkButton>
        )}
      </nav>
      <p className="text-xs text-slate-500" data-testid="flip-keys">
        Keys: <kbd>j</kbd> next {item}, <kbd>k</kbd> previous {item}, <kbd>n</kbd> next {loss}, in the list&rsquo;s
        order and filters.
      </p>
    </div>
  );
}
