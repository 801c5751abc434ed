import fs from "node:fs";
import path from "node:path";
import { ingestUpload, type IngestOptions, type IngestResult } from "./ingestUpload";

/** Ingests a file from disk through the same streaming path as a browser upload (used by the CLI and to seed a new database with the sample dataset). */
export function ingestFile(
  filePath: string,
  options: Omit<IngestOptions, "chunks" | "filename">,
): Promise<IngestResult> {
  return ingestUpload({ ...options, chunks: fs.createReadStream(filePath), filename: path.basename(filePath) });
}
