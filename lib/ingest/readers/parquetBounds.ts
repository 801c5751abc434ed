import type { AsyncBuffer, FileMetaData, RowGroup } from "hyparquet";
import { parquetHeader } from "hyparquet/src/column.js";
import { FileError } from "../errors";
import { formatBytes, formatCount, tooManyRowsMessage } from "../limits";

export type ParquetBounds = {
  maxRows: number;
  maxParquetRowGroupRows: number;
  maxParquetRowGroupBytes: number;
};

const REWRITE_HINT =
  "Write the file with smaller row groups (pyarrow: `pq.write_table(table, path, row_group_size=100_000)`) or split it.";

/**
 * Refuses a Parquet file whose footer announces more than Assay decodes, before
 * any row group is decoded: Parquet compresses repeated values to almost
 * nothing (a dictionary-encoded column of one value repeated 5,000,000 times
 * is a few hundred bytes), so the file's size says nothing about its rows or
 * the memory decoding them takes. Every row group is checked up front, so a
 * file refused for its last group has not had its first ones stored.
 */
export function checkParquetFooter(metadata: FileMetaData, bounds: ParquetBounds): void {
  let totalRows = 0;
  for (const [index, group] of metadata.row_groups.entries()) {
    const rows = Number(group.num_rows);
    totalRows += rows;
    if (rows > bounds.maxParquetRowGroupRows) {
      throw new FileError(
        `Row group ${index + 1} holds ${formatCount(rows)} rows; Assay reads at most ${formatCount(bounds.maxParquetRowGroupRows)} rows per row group (ASSAY_MAX_PARQUET_ROW_GROUP_ROWS). ${REWRITE_HINT}`,
      );
    }
    const bytes = uncompressedBytes(group);
    if (bytes > bounds.maxParquetRowGroupBytes) throw groupTooLarge(index, bytes, bounds);
    for (const column of group.columns) {
      const values = Number(column.meta_data?.num_values ?? 0);
      if (values > maxColumnValues(bounds))
        throw tooManyValues(index, column.meta_data?.path_in_schema ?? [], values, bounds);
    }
  }
  if (totalRows > bounds.maxRows) throw new FileError(tooManyRowsMessage(totalRows, bounds.maxRows));
}

/**
 * Checks a row group's page headers against its footer before the group is
 * decoded. The footer is only what the file says: a crafted one can announce 1
 * row while its page holds millions of values (the decoder trusts the page). A
 * page header is a few bytes, so reading them costs the group's compressed
 * size, which the upload size limit already bounds.
 */
export async function checkRowGroupPages(
  file: AsyncBuffer,
  group: RowGroup,
  index: number,
  bounds: ParquetBounds,
): Promise<void> {
  let bytes = 0;
  for (const column of group.columns) {
    const meta = column.meta_data;
    if (!meta) continue;
    const start = Number(meta.dictionary_page_offset || meta.data_page_offset);
    const length = Number(meta.total_compressed_size);
    const buffer = await file.slice(start, start + length);
    const reader = { view: new DataView(buffer), offset: 0 };
    // A flat column holds one value per row; a list column may hold more, never more than its footer says.
    const announced = Math.max(Number(meta.num_values), Number(group.num_rows));
    let values = 0;
    while (reader.offset < buffer.byteLength - 1) {
      const header = inconsistentIfThrows(() => parquetHeader(reader), index, meta.path_in_schema);
      reader.offset += header.compressed_page_size;
      bytes += header.uncompressed_page_size;
      values += header.data_page_header?.num_values ?? header.data_page_header_v2?.num_values ?? 0;
      if (values > announced) {
        throw new FileError(
          `Row group ${index + 1}, column ${meta.path_in_schema.join(".")}: its pages hold more values (${formatCount(values)} so far) than the file's footer announces (${formatCount(announced)}). The file is damaged or was crafted; write it again (pyarrow, pandas or Spark) and upload that.`,
        );
      }
      if (bytes > bounds.maxParquetRowGroupBytes) throw groupTooLarge(index, bytes, bounds);
    }
  }
}

/**
 * Values one column chunk may hold. A list column (retrieved_context,
 * expected_facts) holds a value per list item, so rows alone do not bound it:
 * one row of a dictionary-encoded list can repeat a value millions of times.
 * Evaluation lists hold a handful to a few dozen items per row.
 */
export const VALUES_PER_ROW = 20;

function maxColumnValues(bounds: ParquetBounds): number {
  return VALUES_PER_ROW * bounds.maxParquetRowGroupRows;
}

function tooManyValues(index: number, path: string[], values: number, bounds: ParquetBounds): FileError {
  return new FileError(
    `Row group ${index + 1}, column ${path.join(".")} holds ${formatCount(values)} values; Assay reads at most ${formatCount(maxColumnValues(bounds))} values per column in a row group (${VALUES_PER_ROW} per row of ASSAY_MAX_PARQUET_ROW_GROUP_ROWS). ${REWRITE_HINT}`,
  );
}

function uncompressedBytes(group: RowGroup): number {
  return group.columns.reduce((sum, column) => sum + Number(column.meta_data?.total_uncompressed_size ?? 0), 0);
}

function groupTooLarge(index: number, bytes: number, bounds: ParquetBounds): FileError {
  return new FileError(
    `Row group ${index + 1} holds ${formatBytes(bytes)} of uncompressed data; Assay reads at most ${formatBytes(bounds.maxParquetRowGroupBytes)} per row group (ASSAY_MAX_PARQUET_ROW_GROUP_MB). ${REWRITE_HINT}`,
  );
}

function inconsistentIfThrows<T>(read: () => T, index: number, path: string[]): T {
  try {
    return read();
  } catch {
    throw new FileError(
      `Row group ${index + 1}, column ${path.join(".")}: a page header could not be read. Is it a complete Parquet file?`,
    );
  }
}
