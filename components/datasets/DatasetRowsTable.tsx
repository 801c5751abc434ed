"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { useMemo } from "react";
import { SearchBox } from "@/components/table/SearchBox";
import { rowIdentityColumns } from "@/components/table/rowIdentityColumns";
import { ServerTable, type ServerTableFeatures } from "@/components/table/ServerTable";
import { CardFrame } from "@/components/ui/Card";
import { formatCount, formatSeconds } from "@/lib/charts/format";
import type { DatasetRowSummary, Page } from "@/lib/db/datasets/datasetQueries";
import { datasetRowParams, type DatasetRowQuery } from "@/lib/urlState/datasetRowQuery";

const column = createColumnHelper<ServerTableFeatures, DatasetRowSummary>();

const FORMAT_LABEL = { string: "text", messages: "chat", query_history: "query+history" } as Record<string, string>;

/**
 * The dataset's rows. Sorting, paging and search all happen on the server:
 * the table only turns clicks into URL changes.
 */
export function DatasetRowsTable({
  datasetId,
  page,
  query,
}: {
  datasetId: string;
  page: Page<DatasetRowSummary>;
  query: DatasetRowQuery;
}) {
  const pathname = `/datasets/${datasetId}`;

  const columns = useMemo(
    () =>
      column.columns([
        ...rowIdentityColumns<DatasetRowSummary>(),
        column.accessor("requestText", {
          header: "Request",
          cell: (info) => (
            <div className="max-w-md">
              <span className="mr-1.5 rounded bg-slate-100 px-1 py-0.5 text-[10px] uppercase text-slate-500">
                {FORMAT_LABEL[info.row.original.requestFormat]}
              </span>
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
            return (
              <span className="line-clamp-2 max-w-md text-slate-700">
                {info.row.original.responseSource === "trace" && (
                  <span className="mr-1 rounded bg-violet-50 px-1 text-[10px] uppercase text-violet-700">trace</span>
                )}
                {value}
              </span>
            );
          },
        }),
        column.display({
          id: "groundTruth",
          header: "Ground truth",
          cell: (info) => {
            const row = info.row.original;
            const tags = [
              row.hasExpectedFacts && "facts",
              row.hasExpectedResponse && "response",
              row.hasExpectedRetrievedContext && "docs",
            ].filter(Boolean) as string[];
            return tags.length === 0 ? (
              <span className="text-xs text-slate-400">none</span>
            ) : (
              <div className="flex gap-1">
                {tags.map((tag) => (
                  <span key={tag} className="rounded bg-emerald-50 px-1 text-[11px] text-emerald-800">
                    {tag}
                  </span>
                ))}
              </div>
            );
          },
        }),
        column.accessor("retrievedChunkCount", {
          header: "Chunks",
          cell: (info) => <span className="tabular-nums">{info.getValue()}</span>,
        }),
        column.accessor("latencySeconds", {
          header: "Latency",
          cell: (info) => <span className="tabular-nums">{formatSeconds(info.getValue())}</span>,
        }),
        column.accessor("totalTokenCount", {
          header: "Tokens",
          cell: (info) => <span className="tabular-nums">{formatCount(info.getValue())}</span>,
        }),
      ]),
    [],
  );

  return (
    <CardFrame padding="none" aria-labelledby="rows-heading">
      <div className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
        <h2 id="rows-heading" className="text-sm font-semibold">
          Rows
        </h2>
        <SearchBox
          action={pathname}
          q={query.q}
          keep={{ sort: query.sort, dir: query.dir, pageSize: query.pageSize }}
          placeholder="Search rows"
        />
      </div>
      <ServerTable
        testId="rows-table"
        columns={columns}
        page={page}
        view={{ pathname, params: datasetRowParams(query) }}
        rowHref={(row) => `${pathname}/rows/${row.id}`}
        linkColumn="requestId"
        cellClassName="px-3 py-2"
        empty={query.q ? `No row matches “${query.q}”.` : "This dataset has no rows."}
        emptyClassName="px-3 py-8 text-center text-sm text-slate-500"
      />
    </CardFrame>
  );
}
