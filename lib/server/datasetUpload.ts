import { getDb } from "@/lib/db/client";
import { createDatasetSink } from "@/lib/db/datasets/datasetWrites";
import { ingestUpload, type IngestOptions, type IngestResult } from "@/lib/ingest/ingestUpload";
import { limitsFromEnv, type IngestLimits } from "@/lib/ingest/limits";
import { discardOrphanedImportsNow, ownedSink, withImportHeartbeat } from "./importOwnership";
import { serverUploadGate } from "./uploadGate";

export type DatasetUploadOptions = {
  body: AsyncIterable<Uint8Array>;
  filename: string;
  name?: string;
  mode: "strict" | "validRowsOnly";
  createdById: string | null;
  limits?: IngestLimits;
  signal?: AbortSignal;
  /** Called while the upload waits for a free slot: how many run, how many wait ahead. */
  onQueued?: (ahead: number, running: number) => void;
  /** Called when it starts after waiting. */
  onStarted?: () => void;
  onProgress?: IngestOptions["onProgress"];
};

/**
 * One upload into a new dataset, as the browser's upload route and the API's both run it: at most
 * ASSAY_MAX_CONCURRENT_UPLOADS at once (the others wait, bodies unread), imports a killed server left behind
 * discarded first, and the import kept alive by a heartbeat while it streams, so nothing is half-written
 * whatever ends it.
 */
export async function runDatasetUpload(options: DatasetUploadOptions): Promise<IngestResult> {
  let queued = false;
  const leave = await serverUploadGate().enter((ahead, running) => {
    queued = true;
    options.onQueued?.(ahead, running);
  }, options.signal);
  try {
    if (queued) options.onStarted?.();
    await discardOrphanedImportsNow();
    return await withImportHeartbeat(() =>
      ingestUpload({
        chunks: options.body,
        filename: options.filename,
        name: options.name,
        mode: options.mode,
        sink: ownedSink(createDatasetSink(getDb(), { createdById: options.createdById })),
        limits: options.limits ?? limitsFromEnv(),
        onProgress: options.onProgress,
      }),
    );
  } finally {
    leave();
  }
}
