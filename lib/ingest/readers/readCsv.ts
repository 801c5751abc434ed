import { FileError, type RowIssue } from "../errors";
import { parseCsvCells } from "./csvCells";
import type { RawRecord } from "./rawRecord";
import { splitCsvRecords, type CsvRecordText } from "./splitCsvRecords";
import { oversizedRowMessage } from "./splitLines";

/**
 * CSV with a header row. splitCsvRecords finds each record and the line it
 * starts on; parseCsvCells then reads that one record's cells, so a malformed
 * record is a row issue that cannot disturb the records after it, and every
 * problem in the file is listed at once. Row 1 is the first record after the
 * header; a malformed record still counts as a row.
 */
export async function* readCsv(texts: AsyncIterable<string>, maxRowChars: number): AsyncGenerator<RawRecord> {
  let header: string[] | null = null;
  let row = 0;
  for await (const found of splitCsvRecords(texts, maxRowChars)) {
    if (header === null) {
      // Blank-looking lines (spaces only) before the header are not the header.
      if (found.kind === "record" && found.text.trim() === "") continue;
      header = readHeader(found, maxRowChars);
      continue;
    }
    row += 1;
    const record = readRecord(found, header, maxRowChars);
    if ("message" in record) {
      const issue: RowIssue = {
        row,
        line: found.line,
        ...(record.column ? { column: record.column } : {}),
        message: record.message,
      };
      yield { row, line: found.line, issue };
      continue;
    }
    const value: Record<string, string> = {};
    header.forEach((column, index) => {
      const cell = record.cells[index];
      if (cell !== undefined && cell !== "") value[column] = cell;
    });
    yield { row, line: found.line, format: "csv", value, columns: header };
  }
  if (header === null) throw new FileError("The file is empty.");
}

function readRecord(
  found: CsvRecordText,
  header: string[],
  maxRowChars: number,
): { cells: string[] } | { message: string; column?: string } {
  if (found.kind === "oversized") return { message: oversizedRowMessage(found.chars, maxRowChars) };
  if (found.kind === "unclosedQuote") return { message: unclosedQuoteMessage(found), column: header[found.cellIndex] };
  const cells = parseCells(found);
  if ("message" in cells) return cells;
  if (cells.cells.length !== header.length)
    return { message: `has ${cells.cells.length} cells but the header has ${header.length} columns` };
  return cells;
}

function readHeader(found: CsvRecordText, maxRowChars: number): string[] {
  if (found.kind === "oversized")
    throw new FileError(
      `The CSV header row is over the limit for one row (${oversizedRowMessage(found.chars, maxRowChars)}).`,
    );
  if (found.kind === "unclosedQuote")
    throw new FileError(`The CSV header could not be read: ${unclosedQuoteMessage(found)}.`);
  const cells = parseCells(found);
  if ("message" in cells) throw new FileError(`The CSV header could not be read: ${cells.message}.`);
  const header = cells.cells.map((cell) => cell.trim());
  const seen = new Set<string>();
  for (const column of header) {
    if (column === "") throw new FileError("The CSV header has an empty column name.");
    if (seen.has(column)) throw new FileError(`The CSV header names the column "${column}" twice.`);
    seen.add(column);
  }
  return header;
}

function parseCells(found: Extract<CsvRecordText, { kind: "record" }>): { cells: string[] } | { message: string } {
  const parsed = parseCsvCells(found.text, found.line);
  return "error" in parsed ? { message: parsed.error } : parsed;
}

function unclosedQuoteMessage(found: Extract<CsvRecordText, { kind: "unclosedQuote" }>): string {
  return `a quoted cell opened on line ${found.quoteLine} is never closed (the quote runs to the end of the file; write "" for a literal quote)`;
}
