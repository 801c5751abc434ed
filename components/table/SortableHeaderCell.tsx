import type { ReactNode } from "react";

/** A column header that sorts on click (server-side, via the table's onSortingChange) and says which way it is sorted. */
export function SortableHeaderCell({
  sorted,
  canSort,
  onToggle,
  children,
  className = "px-3 py-2",
  focusKey,
  highlighted = false,
  tabIndex,
}: {
  sorted: false | "asc" | "desc";
  canSort: boolean;
  onToggle: ((event: unknown) => void) | undefined;
  children: ReactNode;
  className?: string;
  /** Marks the sort button so the focus comes back to it once the re-sorted page arrives (useKeepFocus). */
  focusKey?: string;
  /** The column the current filter is about (failed on this metric): tinted so the eye finds it. */
  highlighted?: boolean;
  /** -1 keeps the button out of the Tab order where the header row is one stop, its buttons reached by arrows. */
  tabIndex?: number;
}) {
  return (
    <th
      className={`whitespace-nowrap ${className} ${highlighted ? "bg-amber-100 text-amber-950" : ""}`}
      data-highlighted={highlighted || undefined}
      aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
    >
      {canSort ? (
        <button
          type="button"
          onClick={onToggle}
          data-focus-key={focusKey}
          data-sort-button
          tabIndex={tabIndex}
          className="inline-flex items-center gap-1 hover:text-slate-900"
        >
          {children}
          <span aria-hidden className="text-[10px]">
            {sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : "↕"}
          </span>
        </button>
      ) : (
        children
      )}
    </th>
  );
}
