import { FileError } from "./errors";

export const UPLOAD_FORMATS = ["csv", "json", "jsonl", "parquet"] as const;
export type UploadFormat = (typeof UPLOAD_FORMATS)[number];

const EXTENSIONS: Record<string, UploadFormat> = {
  csv: "csv",
  json: "json",
  jsonl: "jsonl",
  ndjson: "jsonl",
  parquet: "parquet",
};

/** The file name endings the upload accepts (the browser's file picker and its own check use these too). */
export const UPLOAD_EXTENSIONS = Object.keys(EXTENSIONS).map((ext) => `.${ext}`);

export const UNSUPPORTED_TYPE_HINT = "Upload a .csv, .json (an array of objects), .jsonl or .parquet file.";

export function detectFormat(filename: string): UploadFormat {
  const match = /\.([A-Za-z0-9]+)$/.exec(filename.trim());
  const ext = match?.[1]?.toLowerCase();
  const format = ext ? EXTENSIONS[ext] : undefined;
  if (!format) {
    const shown = ext ? `.${ext}` : "no extension";
    throw new FileError(`Unsupported file type (${shown}). ${UNSUPPORTED_TYPE_HINT}`);
  }
  return format;
}
