"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { useMemo } from "react";
import { rowIdentityColumns } from "@/components/table/rowIdentityColumns";
import { ServerTable, type ServerTableFeatures } from "@/components/table/ServerTable";
import type { Page } from "@/lib/db/pagination";
import type { RunRowSummary } from "@/lib/db/runs/runRowQueries";
import { runRowHref, runRowParams, type RunRowQuery } from "@/lib/urlState/runRowQuery";
import { breakAtSeparators } from "@/components/ui/MetricName";
import { LabelMarker } from "@/components/labels/LabelMarker";
import { useRestoreFocus } from "@/components/table/useKeepFocus";
import { VerdictChip } from "@/components/runs/VerdictChip";

const column = createColumnHelper<ServerTableFeatures, RunRowSummary>();

/**
 * A run's rows with one verdict chip per metric, and the person's label beside it where the row has one; filtering, sorting and paging happen on the server via the URL.
 * Each row's request_id is its link to the drill-down, carrying the filter so j / k / n stay within it.
 */
export function RunRowsTable({
  runId,
  page,
  query,
  metrics,
}: {
  runId: string;
  page: Page<RunRowSummary>;
  query: RunRowQuery;
  metrics: { name: string; short: string }[];
}) {
  // This table mounts anew with every view (the rows section is keyed by the query): the focus comes back here.
  // The control used was noted by the page's shell (RememberFocus).
  useRestoreFocus();
  const columns = useMemo(
    () =>
      column.columns([
        ...rowIdentityColumns<RunRowSummary>("text-indigo-700"),
        column.accessor("requestText", {
          header: "Request",
          enableSorting: false,
          cell: (info) => <span className="line-clamp-2 max-w-xs">{info.getValue()}</span>,
        }),
        column.accessor("response", {
          header: "Response",
          enableSorting: false,
          cell: (info) => <span className="line-clamp-2 max-w-xs text-slate-600">{info.getValue() ?? "—"}</span>,
        }),
        ...metrics.map((metric) =>
          // An accessor (a display column never sorts): sorted on the server by the metric's verdict, then its score,
          // worst first on the first click.
          column.accessor((row) => row.verdicts[metric.name], {
            id: metric.name,
            enableSorting: true,
            sortDescFirst: false,
            header: () => (
              <span title={`${metric.name}: sort by its verdict and score, worst first`}>
                {breakAtSeparators(metric.short)}
              </span>
            ),
            cell: (info) => (
              <span className="inline-flex items-center">
                <VerdictChip
                  verdict={info.row.original.verdicts[metric.name]}
                  metric={metric.name}
                  title={metric.name}
                />
                <LabelMarker mark={info.row.original.labels[metric.name]} metric={metric.short} />
              </span>
            ),
          }),
        ),
      ]),
    [metrics],
  );

  return (
    <div>
      <ServerTable
        testId="run-rows-table"
        columns={columns}
        page={page}
        view={{ pathname: `/runs/${runId}`, params: runRowParams(query), hash: "#rows" }}
        rowHref={(row) => runRowHref(runId, row.id, query)}
        linkColumn="requestId"
        placeKeeping={{ highlightColumn: query.metric, minWidthColumns: ["requestText", "response"] }}
        headerClassName="px-2 py-2"
        cellClassName="px-2 py-1.5"
        empty="No row matches this filter."
        emptyClassName="px-3 py-8 text-center text-slate-500"
      />
    </div>
  );
}
