"use client";

import { createColumnHelper, rowSortingFeature, tableFeatures, useTable } from "@tanstack/react-table";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMemo } from "react";
import { Pager } from "@/components/table/Pager";
import { SearchBox } from "@/components/table/SearchBox";
import { serverSorting } from "@/components/table/serverSorting";
import { SortableHeaderCell } from "@/components/table/SortableHeaderCell";
import { withParams } from "@/components/table/urlState";
import { formatCount, formatSeconds } from "@/components/ui/format";
import type { DatasetRowQuery, DatasetRowSummary, Page } from "@/lib/db/datasetQueries";
import { PAGE_SIZES } from "@/lib/db/pagination";

const features = tableFeatures({ rowSortingFeature });
const column = createColumnHelper<typeof features, DatasetRowSummary>();

const FORMAT_LABEL = { string: "text", messages: "chat", query_history: "query+history" } as Record<string, string>;

/**
 * The dataset's rows. Sorting, paging and search all happen on the server:
 * the table only turns clicks into URL changes.
 */
export function DatasetRowsTable({ datasetId, page, query }: { datasetId: string; page: Page<DatasetRowSummary>; query: DatasetRowQuery }) {
  const router = useRouter();
  const pathname = `/datasets/${datasetId}`;
  const params = { page: query.page, pageSize: query.pageSize, sort: query.sort, dir: query.dir, q: query.q };

  const columns = useMemo(() => column.columns([
    column.accessor("rowNumber", { header: "#", cell: (info) => <span className="tabular-nums text-slate-500">{info.getValue()}</span> }),
    column.accessor("requestId", { header: "request_id", cell: (info) => <code className="font-mono text-xs">{info.getValue()}</code> }),
    column.accessor("requestText", {
      header: "Request",
      cell: (info) => (
        <div className="max-w-md">
          <span className="mr-1.5 rounded bg-slate-100 px-1 py-0.5 text-[10px] uppercase text-slate-500">{FORMAT_LABEL[info.row.original.requestFormat]}</span>
          <span className="line-clamp-2">{info.getValue()}</span>
        </div>
      ),
    }),
    column.accessor("response", {
      header: "Response",
      enableSorting: false,
      cell: (info) => {
        const value = info.getValue();
        if (value === null) return <span className="text-xs text-slate-400">none</span>;
        return <span className="line-clamp-2 max-w-md text-slate-700">{info.row.original.responseSource === "trace" && <span className="mr-1 rounded bg-violet-50 px-1 text-[10px] uppercase text-violet-700">trace</span>}{value}</span>;
      },
    }),
    column.display({
      id: "groundTruth",
      header: "Ground truth",
      cell: (info) => {
        const row = info.row.original;
        const tags = [row.hasExpectedFacts && "facts", row.hasExpectedResponse && "response", row.hasExpectedRetrievedContext && "docs"].filter(Boolean) as string[];
        return tags.length === 0 ? <span className="text-xs text-slate-400">none</span> : <div className="flex gap-1">{tags.map((tag) => <span key={tag} className="rounded bg-emerald-50 px-1 text-[11px] text-emerald-800">{tag}</span>)}</div>;
      },
    }),
    column.accessor("retrievedChunkCount", { header: "Chunks", cell: (info) => <span className="tabular-nums">{info.getValue()}</span> }),
    column.accessor("latencySeconds", { header: "Latency", cell: (info) => <span className="tabular-nums">{formatSeconds(info.getValue())}</span> }),
    column.accessor("totalTokenCount", { header: "Tokens", cell: (info) => <span className="tabular-nums">{formatCount(info.getValue())}</span> }),
  ]), []);

  const table = useTable({
    features,
    columns,
    data: page.items,
    getRowId: (row) => row.id,
    ...serverSorting(query, (sort, dir) => router.push(withParams(pathname, params, { sort, dir, page: 1 }))),
  });

  return (
    <section className="rounded-lg border border-slate-200 bg-white shadow-sm" aria-labelledby="rows-heading">
      <div className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
        <h2 id="rows-heading" className="text-sm font-semibold">Rows</h2>
        <SearchBox action={pathname} q={query.q} keep={{ sort: query.sort, dir: query.dir, pageSize: query.pageSize }} placeholder="Search rows" />
      </div>
      <div className="overflow-x-auto">
        <table className="w-full text-sm" data-testid="rows-table">
          <thead className="border-y border-slate-200 bg-slate-50 text-left text-xs font-medium text-slate-500">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <SortableHeaderCell key={header.id} sorted={header.column.getIsSorted()} canSort={header.column.getCanSort()} onToggle={header.column.getToggleSortingHandler()}>
                    <table.FlexRender header={header} />
                  </SortableHeaderCell>
                ))}
              </tr>
            ))}
          </thead>
          <tbody className="divide-y divide-slate-100">
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id} className="cursor-pointer align-top hover:bg-indigo-50/40" onClick={() => router.push(`${pathname}/rows/${row.original.id}`)}>
                {row.getAllCells().map((cell) => (
                  <td key={cell.id} className="px-3 py-2">
                    {cell.column.id === "requestId" ? (
                      <Link href={`${pathname}/rows/${row.original.id}`} onClick={(event) => event.stopPropagation()} className="text-indigo-700 hover:underline"><table.FlexRender cell={cell} /></Link>
                    ) : (
                      <table.FlexRender cell={cell} />
                    )}
                  </td>
                ))}
              </tr>
            ))}
            {page.items.length === 0 && (
              <tr><td colSpan={columns.length} className="px-3 py-8 text-center text-sm text-slate-500">{query.q ? `No row matches “${query.q}”.` : "This dataset has no rows."}</td></tr>
            )}
          </tbody>
        </table>
      </div>
      <Pager pathname={pathname} params={params} page={page.page} pageCount={page.pageCount} pageSize={page.pageSize} total={page.total} pageSizes={PAGE_SIZES} />
    </section>
  );
}
