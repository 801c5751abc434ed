import { FileError } from "./errors";

export const UPLOAD_FORMATS = ["csv", "json", "jsonl"] as const;
export type UploadFormat = (typeof UPLOAD_FORMATS)[number];

const EXTENSIONS: Record<string, UploadFormat> = { csv: "csv", json: "json", jsonl: "jsonl", ndjson: "jsonl" };

export function detectFormat(filename: string): UploadFormat {
  const match = /\.([A-Za-z0-9]+)$/.exec(filename.trim());
  const ext = match?.[1]?.toLowerCase();
  const format = ext ? EXTENSIONS[ext] : undefined;
  if (!format) {
    const shown = ext ? `.${ext}` : "no extension";
    throw new FileError(`Unsupported file type (${shown}). Upload a .csv, .json (an array of objects) or .jsonl file.`);
  }
  return format;
}
