import { Readable } from "node:stream";
import { CsvError, parse, type Options } from "csv-parse";
import { FileError, type RowIssue } from "../errors";
import type { RawRecord } from "./rawRecord";

/**
 * CSV with a header row. Records stream through csv-parse; a malformed
 * record becomes a row issue and the reader goes on, so every problem is
 * listed at once. Row 1 is the first record after the header.
 */
export async function* readCsv(texts: AsyncIterable<string>, maxRowChars: number): AsyncGenerator<RawRecord> {
  const skipped: RowIssue[] = [];
  let header: string[] | null = null;
  // Set synchronously by csv-parse's hooks, which run ahead of this loop's reads.
  let headerLength = 0;
  let previousEndLine = 0;

  const parser = parse({
    bom: true,
    columns: false,
    skip_empty_lines: true,
    info: true,
    max_record_size: maxRowChars,
    skip_records_with_error: true,
    on_record: (record: unknown, context: { records: number }) => {
      // With info: true the hook sees { record, info } rather than the bare cells.
      const cells = Array.isArray(record) ? record : (record as { record: string[] }).record;
      if (context.records === 1) headerLength = cells.length;
      return record;
    },
    on_skip: (error) => {
      if (!error) return undefined;
      const context = error as CsvError & { lines?: number; records?: number };
      // records counts the header and the good records before this one.
      const row = context.records ?? 1;
      const line = context.lines ?? row + 1;
      skipped.push({ row, line, message: describeCsvError(error, headerLength, maxRowChars) });
      return undefined;
    },
  } as Options);
  Readable.from(texts).on("error", (error) => parser.destroy(error)).pipe(parser);

  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number; records: number } }>) {
      while (skipped.length > 0) {
        const issue = skipped.shift()!;
        yield { row: issue.row, line: issue.line ?? issue.row, issue };
      }
      const startLine = previousEndLine + 1;
      previousEndLine = info.lines;
      if (header === null) {
        header = readHeader(record);
        continue;
      }
      const row = info.records - 1;
      const value: Record<string, string> = {};
      header.forEach((column, index) => {
        const cell = record[index];
        if (cell !== undefined && cell !== "") value[column] = cell;
      });
      yield { row, line: startLine, format: "csv", value };
    }
  } catch (error) {
    if (error instanceof FileError) throw error;
    if (error instanceof CsvError) throw new FileError(`The CSV could not be read: ${describeCsvError(error, headerLength, maxRowChars)}.`);
    throw error;
  }
  for (const issue of skipped) yield { row: issue.row, line: issue.line ?? issue.row, issue };
  if (header === null) throw new FileError("The file is empty.");
}

function readHeader(record: string[]): string[] {
  const header = record.map((cell) => cell.trim());
  const seen = new Set<string>();
  for (const column of header) {
    if (column === "") throw new FileError("The CSV header has an empty column name.");
    if (seen.has(column)) throw new FileError(`The CSV header names the column "${column}" twice.`);
    seen.add(column);
  }
  return header;
}

function describeCsvError(error: CsvError, headerLength: number, maxRowChars: number): string {
  const e = error as CsvError & { record?: unknown[]; lines?: number };
  switch (error.code) {
    case "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH":
    case "CSV_RECORD_INCONSISTENT_COLUMNS":
      return `has ${e.record?.length ?? "a different number of"} cells but the header has ${headerLength} columns`;
    case "CSV_MAX_RECORD_SIZE":
      return `the row is over the ${Math.round(maxRowChars / 1024 / 1024)} MB limit for one row`;
    case "CSV_QUOTE_NOT_CLOSED":
      return `a quoted cell opened near line ${e.lines ?? "?"} is never closed`;
    case "CSV_INVALID_CLOSING_QUOTE":
    case "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE":
      return `a quote inside a cell is not escaped (write "" for a literal quote) near line ${e.lines ?? "?"}`;
    default:
      return error.message.split("\n")[0];
  }
}
