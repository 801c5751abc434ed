import type { Db } from "@/lib/db/client";
import { decodeUploadText } from "@/lib/ingest/decodeText";
import { withIdleTimeout } from "@/lib/ingest/idleTimeout";
import { DEFAULT_LIMITS, type IngestLimits } from "@/lib/ingest/limits";
import type { LabelImportResult } from "@/lib/labels/labelImport";
import { importLabelText } from "@/lib/labels/labelFileText";
import { serverUploadGate } from "./uploadGate";

/** Thrown when the import was abandoned (the client went away) while it waited for a free upload slot. */
export class ImportAbandoned extends Error {}

/**
 * One label file into a dataset, as the browser's label route and the API's both run it: it takes a place
 * among the concurrent uploads (waiting its turn, body unread), stops when no bytes arrive for the idle
 * timeout, reads CSV, a JSON array or JSON Lines (by media type, else by its first characters), and imports
 * all or nothing. A FileError (empty, binary, too large) is thrown for the caller to word.
 */
export async function runLabelFileUpload(
  db: Db,
  options: {
    datasetId: string;
    body: AsyncIterable<Uint8Array>;
    contentType: string | null;
    importedBy: string | null;
    /** An admin's import: the file's labelled_by names the labellers (lib/labels/labelImport.ts). */
    trustsLabelledBy?: boolean;
    limits: IngestLimits & { maxFileBytes: number };
    signal?: AbortSignal;
  },
): Promise<LabelImportResult> {
  let leave: () => void;
  try {
    leave = await serverUploadGate().enter(() => undefined, options.signal);
  } catch {
    throw new ImportAbandoned("The import was abandoned while it waited.");
  }
  try {
    const { limits } = options;
    const chunks = limits.idleTimeoutMs ? withIdleTimeout(options.body, limits.idleTimeoutMs) : options.body;
    return await importLabelText(db, options.datasetId, decodeUploadText(chunks, limits.maxFileBytes), {
      contentType: options.contentType,
      author: { importedBy: options.importedBy, trustsLabelledBy: options.trustsLabelledBy },
      limits: { maxRecords: limits.maxRows ?? DEFAULT_LIMITS.maxRows },
    });
  } finally {
    leave();
  }
}
