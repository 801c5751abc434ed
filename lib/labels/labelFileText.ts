import type { Db } from "@/lib/db/client";
import { FileError } from "@/lib/ingest/errors";
import { importLabelFile, type LabelImportAuthor, type LabelImportResult } from "./labelImport";
import { labelFileFormatOf } from "./labelFile";

/**
 * A label file's decoded text into a dataset, as the label routes and the CLI's --labels read it: its format
 * from the media type, else from its first characters, then imported all or nothing. An empty file is a
 * FileError for the caller to word.
 */
export async function importLabelText(
  db: Db,
  datasetId: string,
  texts: AsyncGenerator<string>,
  options: { contentType: string | null; author: LabelImportAuthor; limits?: { maxRecords: number } },
): Promise<LabelImportResult> {
  const first = await texts.next();
  if (first.done) throw new FileError("The file is empty.");
  const format = labelFileFormatOf(options.contentType, first.value);
  return importLabelFile(db, datasetId, prepend(first.value, texts), format, options.author, options.limits);
}

async function* prepend(first: string, rest: AsyncIterable<string>): AsyncGenerator<string> {
  yield first;
  yield* rest;
}
