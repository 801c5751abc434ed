import Link from "next/link";
import { Fragment, type ReactNode } from "react";
import { LinkButton } from "@/components/ui/Button";
import { KeyboardNav } from "@/components/ui/KeyboardNav";
import { formatInteger } from "@/lib/charts/format";

type RowNavigation = { previousHref: string | null; nextHref: string | null; nextFailedHref?: string | null };

/**
 * The top of a row drill-down: breadcrumb links (each followed by " / "), "Row N request_id", where the row
 * stands in the view it was opened from ("failed on groundedness · 12 of 322"), anything the page adds under
 * the title, and the previous / next (/ next failed) links that j / k (/ n) follow.
 */
export function RowHeader({
  crumbs,
  rowNumber,
  requestId,
  place,
  children,
  navigation,
}: {
  crumbs: { href: string; label: string }[];
  rowNumber: number;
  requestId: string;
  /** Where the row stands in the filter that j / k / n move within, in words. */
  place?: string;
  children?: ReactNode;
  navigation?: RowNavigation;
}) {
  const title = (
    <div>
      <p className="text-xs text-slate-500">
        {crumbs.map((crumb) => (
          <Fragment key={crumb.href}>
            <Link href={crumb.href} className="hover:underline">
              {crumb.label}
            </Link>{" "}
            /{" "}
          </Fragment>
        ))}
      </p>
      <h1 className="text-xl font-semibold tracking-tight">
        Row {formatInteger(rowNumber)}{" "}
        <code className="ml-1 font-mono text-base font-normal text-slate-500">{requestId}</code>
      </h1>
      {place && (
        <p className="text-sm text-slate-600" data-testid="row-place">
          {place}
        </p>
      )}
      {children}
    </div>
  );
  if (!navigation) return title;
  const { previousHref, nextHref, nextFailedHref = null } = navigation;
  return (
    <div className="flex flex-wrap items-end justify-between gap-2">
      <KeyboardNav nextHref={nextHref} previousHref={previousHref} nextFailedHref={nextFailedHref} />
      {title}
      <nav className="flex items-center gap-2 text-sm" aria-label="Row navigation">
        {previousHref && (
          <LinkButton href={previousHref} size="sm">
            ← Previous <kbd className="ml-1 text-xs text-slate-400">k</kbd>
          </LinkButton>
        )}
        {nextHref && (
          <LinkButton href={nextHref} size="sm">
            Next <kbd className="ml-1 text-xs text-slate-400">j</kbd> →
          </LinkButton>
        )}
        {nextFailedHref && (
          <LinkButton href={nextFailedHref} variant="attention" size="sm">
            Next failed <kbd className="ml-1 text-xs">n</kbd>
          </LinkButton>
        )}
      </nav>
    </div>
  );
}
