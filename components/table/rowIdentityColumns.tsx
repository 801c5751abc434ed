"use client";

import { createColumnHelper } from "@tanstack/react-table";
import type { ServerTableFeatures } from "./ServerTable";

/**
 * The two columns every row table starts with, sortable on the server by
 * their ids: the row number and the request_id (`requestIdClassName` styles
 * the id, e.g. as a link colour where the row opens its drill-down).
 */
export function rowIdentityColumns<TRow extends { rowNumber: number; requestId: string }>(requestIdClassName = "") {
  const column = createColumnHelper<ServerTableFeatures, TRow>();
  return [
    column.accessor((row) => row.rowNumber, {
      id: "rowNumber",
      header: "#",
      cell: (info) => <span className="tabular-nums text-slate-500">{info.getValue()}</span>,
    }),
    column.accessor((row) => row.requestId, {
      id: "requestId",
      header: "request_id",
      cell: (info) => <code className={`font-mono text-xs ${requestIdClassName}`.trim()}>{info.getValue()}</code>,
    }),
  ];
}
