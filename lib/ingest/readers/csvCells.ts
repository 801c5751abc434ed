const QUOTE = 34;
const COMMA = 44;

/**
 * The cells of one CSV record that splitCsvRecords cut out (so every quote
 * that opens a cell also closes in it). RFC 4180 as csv-parse reads it by
 * default: a quoted cell may hold commas, line breaks and `""` for a quote;
 * after its closing quote only a comma or the end of the record may follow.
 * A quote opens a quoted cell only as the cell's first character: inside an
 * unquoted cell (`=HYPERLINK("x")`, `5" screen`) it is kept literally, as
 * spreadsheets and Python's csv module read it. Cells are not trimmed.
 */
export function parseCsvCells(text: string, firstLine: number): { cells: string[] } | { error: string } {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    if (text.charCodeAt(i) === QUOTE) {
      let cell = "";
      let from = i + 1;
      for (;;) {
        const close = text.indexOf('"', from);
        if (close === -1)
          return { error: `a quoted cell opened on line ${lineAt(text, i, firstLine)} is never closed` };
        cell += text.slice(from, close);
        if (text.charCodeAt(close + 1) === QUOTE) {
          cell += '"';
          from = close + 2;
          continue;
        }
        i = close + 1;
        break;
      }
      cells.push(cell);
      if (i === text.length) return { cells };
      if (text.charCodeAt(i) !== COMMA) {
        return {
          error: `a quote inside a cell is not escaped (write "" for a literal quote) near line ${lineAt(text, i, firstLine)}`,
        };
      }
      i += 1;
      continue;
    }
    const comma = text.indexOf(",", i);
    const end = comma === -1 ? text.length : comma;
    cells.push(text.slice(i, end));
    if (comma === -1) return { cells };
    i = comma + 1;
  }
}

function lineAt(text: string, position: number, firstLine: number): number {
  let line = firstLine;
  for (let i = 0; i < position; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10 && (i === 0 || text.charCodeAt(i - 1) !== 13)) line += 1;
    else if (ch === 13) line += 1;
  }
  return line;
}
