/** One CSV record as found in the text, before its cells are parsed. */
export type CsvRecordText =
  | { kind: "record"; line: number; text: string }
  /** Longer than the row limit: its text was discarded while scanning, never buffered. */
  | { kind: "oversized"; line: number; chars: number }
  /** A quote opened at the start of a cell and the file ended before it closed. */
  | { kind: "unclosedQuote"; line: number; quoteLine: number; cellIndex: number };

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

/**
 * Splits streamed CSV text into records (RFC 4180: a quote opens only at the
 * start of a cell, `""` is a literal quote inside quotes, and a line break
 * inside quotes belongs to the cell), with the line each record starts on.
 * Blank lines are skipped.
 *
 * The split happens here rather than in csv-parse's streaming parser because
 * that parser cannot recover from an over-long record: it drops the rest of
 * the current chunk and keeps its state, so one unclosed quote became one
 * "row over the limit" issue per chunk until the end of the file. Here a
 * record is bounded by maxRecordChars, an over-long one is counted and
 * skipped without buffering, and an unclosed quote is one record that runs
 * to the end of the file and is reported once, with the line it opened on.
 */
export async function* splitCsvRecords(
  texts: AsyncIterable<string>,
  maxRecordChars: number,
): AsyncGenerator<CsvRecordText> {
  let line = 1;
  let previousWasCr = false;
  let first = true;

  // The record being read.
  let buffer = "";
  let oversizedChars = 0; // > 0 once the record passed the limit
  let recordLine = 0; // 0 until the record has a first character
  let cellStart = true;
  let cellIndex = 0;
  let inQuotes = false;
  let quoteSeen = false; // inside quotes, a quote that is either `""` or the closing one
  let quoteLine = 0;
  let quoteCell = 0;

  const append = (piece: string) => {
    if (piece.length === 0) return;
    if (oversizedChars > 0) {
      oversizedChars += piece.length;
      return;
    }
    if (buffer.length + piece.length > maxRecordChars) {
      oversizedChars = buffer.length + piece.length;
      buffer = "";
      return;
    }
    buffer += piece;
  };
  const finishRecord = (): CsvRecordText | null => {
    const found: CsvRecordText | null =
      recordLine === 0
        ? null
        : oversizedChars > 0
          ? { kind: "oversized", line: recordLine, chars: oversizedChars }
          : { kind: "record", line: recordLine, text: buffer };
    buffer = "";
    oversizedChars = 0;
    recordLine = 0;
    cellStart = true;
    cellIndex = 0;
    return found;
  };

  for await (const chunk of texts) {
    const text = first ? chunk.replace(/^\uFEFF/, "") : chunk;
    first = false;
    let segmentStart = 0; // start of this record's text still to copy from this chunk
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      const lineOfChar = line;
      if (ch === LF) {
        if (!previousWasCr) line += 1;
        previousWasCr = false;
      } else if (ch === CR) {
        line += 1;
        previousWasCr = true;
      } else {
        previousWasCr = false;
      }

      if (inQuotes) {
        if (quoteSeen) {
          quoteSeen = false;
          if (ch === QUOTE) continue; // `""`: a literal quote
          inQuotes = false; // the previous quote closed the cell; read this character outside quotes
        } else {
          if (ch === QUOTE) quoteSeen = true;
          continue;
        }
      }

      if (ch === LF || ch === CR) {
        append(text.slice(segmentStart, i));
        segmentStart = i + 1;
        const found = finishRecord();
        if (found) yield found;
        continue;
      }
      if (recordLine === 0) recordLine = lineOfChar;
      if (ch === COMMA) {
        cellStart = true;
        cellIndex += 1;
        continue;
      }
      if (ch === QUOTE && cellStart) {
        inQuotes = true;
        quoteLine = lineOfChar;
        quoteCell = cellIndex;
      }
      cellStart = false;
    }
    append(text.slice(segmentStart));
  }

  // A quote seen last inside quotes closed the cell at the end of the file.
  if (inQuotes && !quoteSeen) {
    yield { kind: "unclosedQuote", line: recordLine, quoteLine, cellIndex: quoteCell };
    return;
  }
  const last = finishRecord();
  if (last) yield last;
}
