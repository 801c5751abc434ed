"use client";

import { rowSortingFeature, tableFeatures, useTable, type ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { KeyboardEvent, MouseEvent, ReactNode } from "react";
import type { Page } from "@/lib/db/pagination";
import { withParams, type ParamValues } from "@/lib/urlState/withParams";
import { Pager } from "./Pager";
import { serverSorting } from "./serverSorting";
import { SortableHeaderCell } from "./SortableHeaderCell";

/** The row link: the request_id's colour (its focus ring comes from the focus-visible token in app/globals.css). */
const ROW_LINK = "rounded text-indigo-700 hover:underline";

/** The features of a server-driven table; each table builds its columns with createColumnHelper<ServerTableFeatures, Row>(). */
export const serverTableFeatures = tableFeatures({ rowSortingFeature });
export type ServerTableFeatures = typeof serverTableFeatures;

type Props<TRow extends { id: string }> = {
  testId: string;
  // Columns hold cells of different value types; tanstack's own column arrays are typed this way.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<ServerTableFeatures, TRow, any>[];
  page: Page<TRow>;
  /** The view's URL: its path, its parameters (the parsed query), and where a re-sorted view scrolls to. */
  view: { pathname: string; params: ParamValues & { sort: string; dir: "asc" | "desc" }; hash?: string };
  /** Where a click on a row leads. */
  rowHref: (row: TRow) => string;
  /**
   * The column whose cell is the row's real link: what Tab reaches and Enter
   * opens, and what a middle-click, a copied link or "open in new tab" use.
   */
  linkColumn?: string;
  headerClassName?: string;
  cellClassName: string;
  /**
   * The run rows table's extras: a pager above the table too (the row count at the top), controls marked for
   * useKeepFocus, and one column (the filtered metric's) tinted.
   */
  placeKeeping?: { highlightColumn?: string; minWidthColumns?: string[] };
  empty: ReactNode;
  emptyClassName: string;
};

/**
 * A table whose sorting, paging and filtering all happen on the server: it
 * renders the page it is given, with its pager, and only turns clicks into
 * URL changes (a header click asks for the view sorted another way, from page 1).
 */
export function ServerTable<TRow extends { id: string }>({
  testId,
  columns,
  page,
  view,
  rowHref,
  linkColumn,
  headerClassName,
  cellClassName,
  empty,
  emptyClassName,
  placeKeeping,
}: Props<TRow>) {
  const router = useRouter();
  const rows = page.items;
  /**
   * A click anywhere else on a row does what a click on its link would: a plain
   * click opens the row, a middle or modified click opens it in a new tab. A
   * click on a control inside the row, or one that ends a text selection, is
   * left alone.
   */
  const openRow = (event: MouseEvent<HTMLTableRowElement>, href: string) => {
    const target = event.target as Element;
    if (target.closest("a, button, input, select, textarea, label, summary")) return;
    if (event.type === "click" && window.getSelection()?.toString()) return;
    const newTab = event.button === 1 || event.metaKey || event.ctrlKey || event.shiftKey;
    if (event.button !== 0 && event.button !== 1) return;
    if (newTab) window.open(href, "_blank", "noopener");
    else router.push(href);
  };
  const table = useTable({
    features: serverTableFeatures,
    columns,
    data: rows,
    getRowId: (row) => row.id,
    ...serverSorting(view.params, (sort, dir) =>
      router.push(withParams(view.pathname, view.params, { sort, dir, page: 1 }) + (view.hash ?? "")),
    ),
  });

  const pager = (place?: "top" | "bottom") => (
    <Pager
      pathname={view.pathname}
      params={view.params}
      page={page.page}
      pageCount={page.pageCount}
      pageSize={page.pageSize}
      total={page.total}
      hash={view.hash}
      place={place}
      cursor={page.cursor}
    />
  );
  const highlight = placeKeeping?.highlightColumn;
  /**
   * With a sort button on every metric column, the header row is one Tab stop (the sorted column's button) and ←
   * / → move between its buttons, so the rows stay a few Tabs from the filter bar however wide the run is.
   */
  const headers = table.getHeaderGroups().flatMap((group) => group.headers);
  const tabStop = placeKeeping
    ? (
        headers.find((header) => header.column.getCanSort() && header.column.getIsSorted()) ??
        headers.find((header) => header.column.getCanSort())
      )?.id
    : undefined;
  const moveAlongHeaders = (event: KeyboardEvent<HTMLTableRowElement>) => {
    if (!placeKeeping || (event.key !== "ArrowLeft" && event.key !== "ArrowRight")) return;
    const buttons = [...event.currentTarget.querySelectorAll<HTMLElement>("[data-sort-button]")];
    const at = buttons.indexOf(document.activeElement as HTMLElement);
    if (at < 0) return;
    event.preventDefault();
    buttons[Math.min(buttons.length - 1, Math.max(0, at + (event.key === "ArrowRight" ? 1 : -1)))].focus();
  };
  return (
    <>
      {placeKeeping && pager("top")}
      <div className="overflow-x-auto">
        <table className="w-full text-sm" data-testid={testId}>
          <thead className="border-y border-slate-200 bg-slate-50 text-left text-xs font-medium text-slate-500">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id} onKeyDown={moveAlongHeaders}>
                {group.headers.map((header) => (
                  <SortableHeaderCell
                    key={header.id}
                    className={`${headerClassName ?? ""} ${placeKeeping?.minWidthColumns?.includes(header.column.id) ? "min-w-56" : ""}`}
                    focusKey={placeKeeping ? `sort-${header.column.id}` : undefined}
                    highlighted={highlight !== undefined && header.column.id === highlight}
                    tabIndex={tabStop === undefined ? undefined : header.id === tabStop ? 0 : -1}
                    sorted={header.column.getIsSorted()}
                    canSort={header.column.getCanSort()}
                    onToggle={header.column.getToggleSortingHandler()}
                  >
                    <table.FlexRender header={header} />
                  </SortableHeaderCell>
                ))}
              </tr>
            ))}
          </thead>
          <tbody className="divide-y divide-slate-100">
            {table.getRowModel().rows.map((row) => {
              const href = rowHref(row.original);
              return (
                <tr
                  key={row.id}
                  className="cursor-pointer align-top hover:bg-indigo-50/40 focus-within:bg-indigo-50"
                  onClick={(event) => openRow(event, href)}
                  onAuxClick={(event) => openRow(event, href)}
                >
                  {row.getAllCells().map((cell) => (
                    <td
                      key={cell.id}
                      className={`${cellClassName} ${highlight !== undefined && cell.column.id === highlight ? "bg-amber-50" : ""}`}
                    >
                      {cell.column.id === linkColumn ? (
                        // No prefetch: every row's link would ask the server for its route as it scrolled into view,
                        // 50 requests a page before anyone clicks, while Assay's pages are dynamic (they read the store
                        // on each request), so a prefetch brings little of the page before the click. The same holds
                        // for the other links of lists and tables (pager, filters, metric cards, heatmap, flips,
                        // agreement cells).
                        <Link prefetch={false} href={href} className={ROW_LINK}>
                          <table.FlexRender cell={cell} />
                        </Link>
                      ) : (
                        <table.FlexRender cell={cell} />
                      )}
                    </td>
                  ))}
                </tr>
              );
            })}
            {rows.length === 0 && (
              <tr>
                <td colSpan={columns.length} className={emptyClassName}>
                  {empty}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {pager(placeKeeping ? "bottom" : undefined)}
    </>
  );
}
