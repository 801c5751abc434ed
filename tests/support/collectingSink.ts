import type { DatasetSink } from "@/lib/contract/datasetSink";
import type { NormalizedRow } from "@/lib/contract/normalizedRow";

/** Records what the ingest writes, so parsing can be tested without a database (the store has its own tests). */
export function collectingSink() {
  const state = {
    begun: 0,
    rows: [] as NormalizedRow[],
    committed: null as null | { rowCount: number; warnings: string[] },
    discarded: false,
    batches: 0,
  };
  const sink: DatasetSink = {
    async begin() {
      state.begun += 1;
      return "dataset-1";
    },
    async writeRows(_id, rows) {
      state.batches += 1;
      state.rows.push(...rows);
    },
    async commit(_id, summary) {
      state.committed = summary;
    },
    async discard() {
      state.discarded = true;
      state.rows = [];
    },
  };
  return { sink, state };
}
