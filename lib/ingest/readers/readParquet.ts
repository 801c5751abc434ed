import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from "hyparquet";
import type { ByteCounter } from "../decodeText";
import { decodedBytes } from "../decodedSize";
import { FileError } from "../errors";
import { formatBytes, maxDecodedBytesOf, tooMuchDecodedDataMessage } from "../limits";
import { checkParquetFooter, checkRowGroupPages, type ParquetBounds } from "./parquetBounds";
import type { RawRecord } from "./rawRecord";

/**
 * A .parquet file (as Hugging Face, Spark and pandas export evaluation sets).
 * Parquet keeps its schema and row-group index in a footer at the end of the
 * file, so the upload is first streamed to a temporary file (the body is
 * never held in memory), then read one row group at a time: memory is bounded
 * by the largest row group, not the file, and a row group's rows and
 * uncompressed bytes are bounded (from the footer, then its page headers)
 * before it is decoded. A decoded group is measured whole before its first
 * row is yielded (the decoded limit, ASSAY_MAX_UPLOAD_DECODED_MB): a value
 * the dictionary stores once is given to every row that refers to it, so a
 * few KB of pages can decode to gigabytes of rows, while the group itself
 * holds the value once and costs little to measure. Rows become the same
 * objects a JSON upload gives (nested lists and structs such as
 * retrieved_context map to arrays and objects), numbered from 1 across row
 * groups, and go through the same validation.
 */
export async function* readParquet(
  chunks: AsyncIterable<Uint8Array>,
  limits: ParquetBounds & { maxFileBytes: number; maxDecodedBytes?: number },
  counter: ByteCounter,
): AsyncGenerator<RawRecord> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "assay-upload-"));
  try {
    const filePath = path.join(dir, "upload.parquet");
    await spoolToFile(chunks, filePath, limits.maxFileBytes, counter);
    if (counter.bytes === 0) throw new FileError("The file is empty.");
    const file = await asyncBufferFromFile(filePath);
    const metadata = await parquetMetadataAsync(file).catch((error: unknown) => {
      throw new FileError(`This .parquet file could not be read (${detail(error)}). Is it a complete Parquet file?`);
    });
    checkParquetFooter(metadata, limits);
    const maxDecodedBytes = maxDecodedBytesOf(limits);
    let decoded = 0;
    let rowStart = 0;
    for (const [index, group] of metadata.row_groups.entries()) {
      const rowEnd = rowStart + Number(group.num_rows);
      await checkRowGroupPages(file, group, index, limits);
      // hyparquet's own row objects are dropped once mapped: only `values` stays while the group is yielded.
      const values = (
        await parquetReadObjects({ file, metadata, rowStart, rowEnd }).catch((error: unknown) => {
          throw new FileError(
            `Row group ${index + 1} of this .parquet file (rows ${rowStart + 1}–${rowEnd}) could not be read (${detail(error)}).`,
          );
        })
      ).map(plainValue);
      for (const value of values) decoded += decodedBytes(value);
      if (decoded > maxDecodedBytes)
        throw new FileError(tooMuchDecodedDataMessage({ rows: rowEnd, bytes: decoded }, maxDecodedBytes));
      for (const [offset, value] of values.entries()) {
        const row = rowStart + offset + 1;
        yield { row, line: row, format: "json", value };
      }
      rowStart = rowEnd;
    }
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

async function spoolToFile(
  chunks: AsyncIterable<Uint8Array>,
  filePath: string,
  maxFileBytes: number,
  counter: ByteCounter,
): Promise<void> {
  const handle = await fs.promises.open(filePath, "w");
  try {
    for await (const chunk of chunks) {
      counter.bytes += chunk.byteLength;
      if (counter.bytes > maxFileBytes) {
        throw new FileError(`The file is larger than the ${formatBytes(maxFileBytes)} limit.`);
      }
      await handle.write(chunk);
    }
  } finally {
    await handle.close();
  }
}

/**
 * Parquet values as JSON would carry them: 64-bit integers (BigInt) become
 * numbers when exact and strings otherwise, timestamps ISO strings.
 */
function plainValue(value: unknown): unknown {
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(plainValue);
  if (value !== null && typeof value === "object" && !ArrayBuffer.isView(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plainValue(item)]));
  }
  return value;
}

function detail(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0].slice(0, 160);
}
