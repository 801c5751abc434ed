import type { RowIssue } from "../errors";

/** One record as a reader found it, before validation: parsed JSON, or a CSV row of cells. */
export type RawRecord =
  | { row: number; line: number; format: "json"; value: unknown }
  | {
      row: number;
      line: number;
      format: "csv";
      value: Record<string, string>;
      /** The header, every column (the value leaves out empty cells). */
      columns: readonly string[];
    }
  | { row: number; line: number; issue: RowIssue };
