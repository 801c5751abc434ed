"use client";

import { createColumnHelper, rowSortingFeature, tableFeatures, useTable } from "@tanstack/react-table";
import { useRouter } from "next/navigation";
import { useMemo } from "react";
import { Pager } from "@/components/table/Pager";
import { serverSorting } from "@/components/table/serverSorting";
import { SortableHeaderCell } from "@/components/table/SortableHeaderCell";
import { withParams } from "@/components/table/urlState";
import type { Page } from "@/lib/db/pagination";
import { PAGE_SIZES } from "@/lib/db/pagination";
import type { RunRowQuery, RunRowSummary } from "@/lib/db/runRowQueries";
import { VerdictChip } from "./VerdictChip";

const features = tableFeatures({ rowSortingFeature });
const column = createColumnHelper<typeof features, RunRowSummary>();

/** A run's rows with one verdict chip per metric; filtering, sorting and paging happen on the server via the URL. */
export function RunRowsTable({ runId, page, query, metrics }: { runId: string; page: Page<RunRowSummary>; query: RunRowQuery; metrics: { name: string; short: string }[] }) {
  const router = useRouter();
  const pathname = `/runs/${runId}`;
  const params = { filter: query.filter, metric: query.metric, q: query.q, sort: query.sort, dir: query.dir, page: query.page, pageSize: query.pageSize };
  const rowHref = (rowId: string) => withParams(`${pathname}/rows/${rowId}`, {}, { filter: query.filter, metric: query.metric, q: query.q });

  const columns = useMemo(() => column.columns([
    column.accessor("rowNumber", { header: "#", cell: (info) => <span className="tabular-nums text-slate-500">{info.getValue()}</span> }),
    column.accessor("requestId", { header: "request_id", cell: (info) => <code className="font-mono text-xs text-indigo-700">{info.getValue()}</code> }),
    column.accessor("requestText", { header: "Request", enableSorting: false, cell: (info) => <span className="line-clamp-2 max-w-xs">{info.getValue()}</span> }),
    column.accessor("response", { header: "Response", enableSorting: false, cell: (info) => <span className="line-clamp-2 max-w-xs text-slate-600">{info.getValue() ?? "—"}</span> }),
    ...metrics.map((metric) => column.display({
      id: metric.name,
      header: () => <span title={metric.name}>{metric.short}</span>,
      cell: (info) => <VerdictChip verdict={info.row.original.verdicts[metric.name]} metric={metric.name} title={metric.name} />,
    })),
  ]), [metrics]);

  const table = useTable({
    features,
    columns,
    data: page.items,
    getRowId: (row) => row.id,
    ...serverSorting(query, (sort, dir) => router.push(withParams(pathname, params, { sort, dir, page: 1 }) + "#rows")),
  });

  return (
    <div>
      <div className="overflow-x-auto">
        <table className="w-full text-sm" data-testid="run-rows-table">
          <thead className="border-y border-slate-200 bg-slate-50 text-left text-xs font-medium text-slate-500">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <SortableHeaderCell key={header.id} className="px-2 py-2" sorted={header.column.getIsSorted()} canSort={header.column.getCanSort()} onToggle={header.column.getToggleSortingHandler()}>
                    <table.FlexRender header={header} />
                  </SortableHeaderCell>
                ))}
              </tr>
            ))}
          </thead>
          <tbody className="divide-y divide-slate-100">
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id} className="cursor-pointer align-top hover:bg-indigo-50/40" onClick={() => router.push(rowHref(row.original.id))}>
                {row.getAllCells().map((cell) => <td key={cell.id} className="px-2 py-1.5"><table.FlexRender cell={cell} /></td>)}
              </tr>
            ))}
            {page.items.length === 0 && <tr><td colSpan={columns.length} className="px-3 py-8 text-center text-slate-500">No row matches this filter.</td></tr>}
          </tbody>
        </table>
      </div>
      <Pager pathname={pathname} params={params} page={page.page} pageCount={page.pageCount} pageSize={page.pageSize} total={page.total} pageSizes={PAGE_SIZES} />
    </div>
  );
}
