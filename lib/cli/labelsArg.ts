import fs from "node:fs";
import type { Db } from "@/lib/db/client";
import { decodeUploadText } from "@/lib/ingest/decodeText";
import { describeRowIssue, FileError } from "@/lib/ingest/errors";
import { importLabelText } from "@/lib/labels/labelFileText";

/** A label file may be as large as a dataset file: 1 GiB, streamed. */
const MAX_LABEL_FILE_BYTES = 1024 ** 3;

/**
 * `--labels FILE`: a label file (request_id, metric, label, …: CSV, a JSON array or JSON Lines, as the label
 * export writes) imported into the run's dataset once the run is stored, so labels on the run's own custom and
 * G-Eval judges are taken too, all or nothing. The import's count, or the problems with their rows.
 */
export async function importLabelsFromCli(
  db: Db,
  datasetId: string,
  file: string,
): Promise<{ ok: true; message: string } | { ok: false; message: string }> {
  if (!fs.existsSync(file)) return { ok: false, message: `--labels: no such file: ${file}` };
  let result;
  try {
    result = await importLabelText(db, datasetId, decodeUploadText(fs.createReadStream(file), MAX_LABEL_FILE_BYTES), {
      contentType: file.toLowerCase().endsWith(".csv") ? "text/csv" : null,
      author: { importedBy: null },
    });
  } catch (error) {
    if (error instanceof FileError) return { ok: false, message: `--labels ${file}: ${error.message}` };
    throw error;
  }
  if (result.ok)
    return { ok: true, message: `Labels: ${result.records} read from ${file}, ${result.changed} new or changed.` };
  const more =
    result.issueCount > result.issues.length ? [`…and ${result.issueCount - result.issues.length} more`] : [];
  return {
    ok: false,
    message: `--labels ${file} was not imported:\n  ${[...result.issues.map(describeRowIssue), ...more].join("\n  ")}`,
  };
}
