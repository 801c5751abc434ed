/**
 * Two kinds of upload failure. A FileError stops the whole upload (empty,
 * binary, too large, unknown type, unreadable structure). A RowIssue belongs
 * to one row and, optionally, one column; the rest of the file still gets read
 * so the user sees every problem at once.
 */
export class FileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FileError";
  }
}

export type RowIssue = {
  /** 1-based data row number (the header of a CSV is not a row). */
  row: number;
  /** Physical line in the file where the row starts, when it differs from the row number. */
  line?: number;
  column?: string;
  message: string;
};

export function describeRowIssue(issue: RowIssue): string {
  const where = [`row ${issue.row}`];
  if (issue.line !== undefined && issue.line !== issue.row) where[0] += ` (line ${issue.line})`;
  if (issue.column) where.push(`column ${issue.column}`);
  return `${where.join(", ")}: ${issue.message}`;
}
