/**
 * The decoded size of one record as a reader gives it (a JSON value, a CSV row's cells, a Parquet row),
 * counted against ASSAY_MAX_UPLOAD_DECODED_MB: a string by its length, any other scalar as 1, binary by
 * its bytes, a nested object's keys by their length; the record's own column names are left out.
 *
 * Why this count, and not approximateRowBytes (rowSize.ts) of the normalised row: it is a lower bound of
 * the record's text in every text format. Each character of a JSON string or a CSV cell takes at least one
 * byte of the file, a number, true or null at least one, and the column names are the CSV header's (or
 * each JSON line's, which this leaves uncounted); so a JSON Lines, JSON or CSV file never counts more than
 * its own bytes, and twice the upload limit never refuses one. The normalised row would: it keeps a request
 * three times (as uploaded, as messages, as text) and approximateRowBytes counts a number as 8, so a text
 * file within the upload limit could count past twice it. Parquet is where the count and the file part: a
 * value its dictionary stores once is counted once for every row that repeats it, as decoding gives it to
 * every row, validation reads it and the store writes it (up to three times, as above). The record is
 * measured as it is read, invalid ones too, before it is validated; so the walk is iterative (validation
 * has not yet bounded its nesting depth).
 */
export function decodedBytes(value: unknown): number {
  if (!isPlainObject(value)) return valueBytes(value);
  let total = 0;
  for (const key in value) if (Object.hasOwn(value, key)) total += valueBytes(value[key]);
  return total;
}

function valueBytes(root: unknown): number {
  let total = 0;
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === "string") total += value.length;
    else if (ArrayBuffer.isView(value)) total += value.byteLength;
    else if (Array.isArray(value)) for (const item of value) pending.push(item);
    else if (isPlainObject(value)) {
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        total += key.length;
        pending.push(value[key]);
      }
    } else total += 1;
  }
  return total;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) && !ArrayBuffer.isView(value);
}
