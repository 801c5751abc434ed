/**
 * CSV cells, escaped twice over: RFC 4180 quoting, and spreadsheet formula
 * neutralising. A text cell whose first visible character is =, +, - or @, or
 * their full-width forms ＝ ＋ － ＠ (which spreadsheets in CJK locales read
 * as the ASCII ones), gets a leading apostrophe, so an uploaded
 * "=HYPERLINK(...)" cannot run when the export is opened in Excel or Sheets.
 * "First visible" skips what a spreadsheet may strip or not render before
 * parsing the cell: every control character (C0 U+0000–U+001F, DEL, C1
 * U+0080–U+009F such as NEL U+0085), any Unicode space (tab, NBSP U+00A0,
 * U+2000–U+200A, U+3000, …) and invisible format characters (zero-width
 * U+200B–U+200D, word joiner U+2060, BOM U+FEFF, bidi marks, soft hyphen).
 * A cell starting with a tab or CR is escaped too. Every CSV the app writes
 * (run results, compare, labels) goes through csvCell, so this is the one guard.
 * Numbers and booleans are values, never text: a score of -0.5 stays -0.5.
 */
const FORMULA_START = /^(?:[\t\r]|[\s\p{Cc}\p{Cf}]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/u;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  let text = typeof value === "string" ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: unknown[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}
