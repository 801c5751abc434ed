/**
 * The headline of a failed upload, in words: "1 problem in 2 rows. Nothing
 * was stored." Counts are of problems and of all rows read (valid or not),
 * each with its own singular or plural.
 */
export function describeUploadProblems(issueCount: number, rowsRead: number): string {
  return `${countOf(issueCount, "problem")} in ${countOf(rowsRead, "row")}. Nothing was stored.`;
}

function countOf(count: number, noun: string): string {
  return `${count.toLocaleString("en-US")} ${noun}${count === 1 ? "" : "s"}`;
}
