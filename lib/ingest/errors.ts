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

/** What the items of an array column or key are called, as people count them. */
const ITEM_NOUNS: Record<string, string> = {
  retrieved_context: "chunk",
  expected_retrieved_context: "chunk",
  expected_facts: "fact",
  messages: "message",
  history: "history message",
};

/**
 * A validator's path in people's words, counted from 1: `0.doc_uri` in
 * retrieved_context is "chunk 1, doc_uri", `messages.2.role` is "message 3, role".
 * `column` is the column the path starts in, when the path does not name it.
 */
export function describePlace(path: readonly PropertyKey[], column?: string): string {
  const parts: string[] = [];
  let noun = column === undefined ? undefined : ITEM_NOUNS[column];
  for (const [index, segment] of path.entries()) {
    if (typeof segment === "number") {
      parts.push(`${noun ?? "item"} ${segment + 1}`);
      noun = undefined;
      continue;
    }
    const key = String(segment);
    const next = path[index + 1];
    // "messages" followed by its index reads as "message 3"; alone it stays the key's name.
    if (ITEM_NOUNS[key] !== undefined && typeof next === "number") {
      noun = ITEM_NOUNS[key];
      continue;
    }
    parts.push(key);
    noun = undefined;
  }
  return parts.join(", ");
}
