import { Readable } from "node:stream";
import { CsvError, parse, type Options } from "csv-parse";
import { FileError, type RowIssue } from "../errors";
import type { RawRecord } from "./rawRecord";

type Numbered = { cells: string[]; row: number; line: number };

/**
 * CSV with a header row. Records stream through csv-parse; a malformed
 * record becomes a row issue and the reader goes on, so every problem is
 * listed at once. Row 1 is the first record after the header. Row and line
 * numbers are assigned in csv-parse's own hooks, which run synchronously in
 * file order (ahead of this loop's reads), so skipped records are counted too.
 */
export async function* readCsv(texts: AsyncIterable<string>, maxRowChars: number): AsyncGenerator<RawRecord> {
  const skipped: RowIssue[] = [];
  let header: string[] | null = null;
  let headerLength = 0;
  let ordinal = 0; // records seen so far, header included, good or skipped
  let lastEndLine = 0;

  const parser = parse({
    bom: true,
    columns: false,
    skip_empty_lines: true,
    max_record_size: maxRowChars,
    skip_records_with_error: true,
    on_record: (record: string[], context: { lines: number }): Numbered => {
      ordinal += 1;
      if (ordinal === 1) headerLength = record.length;
      const numbered = { cells: record, row: ordinal - 1, line: lastEndLine + 1 };
      lastEndLine = context.lines;
      return numbered;
    },
    on_skip: (error: CsvError | undefined) => {
      if (!error) return undefined;
      ordinal += 1;
      const end = (error as CsvError & { lines?: number }).lines ?? lastEndLine + 1;
      skipped.push({ row: ordinal - 1, line: lastEndLine + 1, message: describeCsvError(error, headerLength, maxRowChars) });
      lastEndLine = end;
      return undefined;
    },
  } as unknown as Options);
  Readable.from(texts).on("error", (error) => parser.destroy(error)).pipe(parser);

  const flushSkippedBefore = function* (row: number): Generator<RawRecord> {
    while (skipped.length > 0 && skipped[0].row < row) {
      const issue = skipped.shift()!;
      yield { row: issue.row, line: issue.line ?? issue.row, issue };
    }
  };

  try {
    for await (const record of parser as AsyncIterable<Numbered>) {
      yield* flushSkippedBefore(record.row);
      if (record.row === 0) {
        header = readHeader(record.cells);
        continue;
      }
      const value: Record<string, string> = {};
      header!.forEach((column, index) => {
        const cell = record.cells[index];
        if (cell !== undefined && cell !== "") value[column] = cell;
      });
      yield { row: record.row, line: record.line, format: "csv", value };
    }
  } catch (error) {
    if (error instanceof FileError) throw error;
    if (error instanceof CsvError) throw new FileError(`The CSV could not be read: ${describeCsvError(error, headerLength, maxRowChars)}.`);
    throw error;
  }
  yield* flushSkippedBefore(Number.POSITIVE_INFINITY);
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
