import type { NormalizedRow } from "./normalizedRow";

/**
 * Where an upload's validated rows go (lib/ingest writes through it): the store's implementation is
 * lib/db/datasets/datasetWrites.ts `createDatasetSink`; tests may pass their own.
 */
export type DatasetSink = {
  /** `sourceFormat`: csv, json, jsonl or parquet (lib/ingest/formats.ts). */
  begin(meta: { name: string; sourceFilename: string; sourceFormat: string }): Promise<string>;
  writeRows(datasetId: string, rows: NormalizedRow[]): Promise<void>;
  commit(datasetId: string, summary: { rowCount: number; warnings: string[] }): Promise<void>;
  discard(datasetId: string): Promise<void>;
};
