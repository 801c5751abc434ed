import { createHash } from "node:crypto";

/**
 * What a human label judged, as a content hash: the sha256 (hex) of the
 * response text. Stored beside each dataset row's and generation's response
 * when it is written, and on each label, so a label counts for a run's row
 * only where that run judged the same text (a join on equal hashes, in SQL).
 * Null for no response.
 */
export function responseHashOf(response: string | null | undefined): string | null {
  return response === null || response === undefined
    ? null
    : createHash("sha256").update(response, "utf8").digest("hex");
}
