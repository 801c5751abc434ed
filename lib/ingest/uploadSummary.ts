import { ACCEPTED_FORMATS } from "./foreignFormats";

/**
 * The headline of a failed upload, in words: "9 problems in 8 of 10 rows.
 * Nothing was stored." Counts are of problems, of the rows that have them and
 * of all rows read (valid or not), each with its own singular or plural.
 */
export function describeUploadProblems(issueCount: number, rowsWithProblems: number, rowsRead: number): string {
  const rows =
    rowsWithProblems === rowsRead && rowsRead === 1
      ? "1 row"
      : `${rowsWithProblems.toLocaleString("en-US")} of ${countOf(rowsRead, "row")}`;
  return `${countOf(issueCount, "problem")} in ${rows}. Nothing was stored.`;
}

function countOf(count: number, noun: string): string {
  return `${count.toLocaleString("en-US")} ${noun}${count === 1 ? "" : "s"}`;
}

/** The file-level error when no record has a request column, even after reading it as another tool's format. */
export function noRequestColumnMessage(columns: readonly string[], more: boolean): string {
  const found = columns.length === 0 ? "none" : `${columns.join(", ")}${more ? ", …" : ""}`;
  return `No column gives the request. Found columns: ${found}. Assay reads: ${ACCEPTED_FORMATS}. Rename the question column to request, or use one of these formats' column names.`;
}
