/**
 * CSV cells, escaped twice over: RFC 4180 quoting, and spreadsheet formula
 * neutralising. A text cell starting with =, +, -, @ (or a tab/CR that some
 * spreadsheets skip) gets a leading apostrophe, so an uploaded
 * "=HYPERLINK(...)" cannot run when the export is opened in Excel or Sheets.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  let text = typeof value === "string" ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: unknown[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}
