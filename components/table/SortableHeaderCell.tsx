import type { ReactNode } from "react";

/** A column header that sorts on click (server-side, via the table's onSortingChange) and says which way it is sorted. */
export function SortableHeaderCell({
  sorted,
  canSort,
  onToggle,
  children,
  className = "px-3 py-2",
}: {
  sorted: false | "asc" | "desc";
  canSort: boolean;
  onToggle: ((event: unknown) => void) | undefined;
  children: ReactNode;
  className?: string;
}) {
  return (
    <th
      className={`whitespace-nowrap ${className}`}
      aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
    >
      {canSort ? (
        <button type="button" onClick={onToggle} className="inline-flex items-center gap-1 hover:text-slate-900">
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
