import { FileError } from "./errors";
import { formatBytes } from "./limits";

export type ByteCounter = { bytes: number };

/**
 * Decodes an uploaded byte stream as UTF-8 text, piece by piece, so the file is
 * never held whole. Rejects binary content (a NUL byte, or bytes that are not
 * UTF-8) and files over the size limit, and counts bytes for progress.
 */
export async function* decodeUtf8Text(
  chunks: AsyncIterable<Uint8Array>,
  maxFileBytes: number,
  counter: ByteCounter = { bytes: 0 },
): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  let sawText = false;
  for await (const chunk of chunks) {
    counter.bytes += chunk.byteLength;
    if (counter.bytes > maxFileBytes) {
      throw new FileError(`The file is larger than the ${formatBytes(maxFileBytes)} limit.`);
    }
    if (chunk.indexOf(0) !== -1) throw binaryFile();
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      throw binaryFile();
    }
    if (!sawText && text.trim().length > 0) sawText = true;
    if (text.length > 0) yield text;
  }
  let tail: string;
  try {
    tail = decoder.decode();
  } catch {
    throw binaryFile();
  }
  if (tail.trim().length > 0) sawText = true;
  if (tail.length > 0) yield tail;
  if (!sawText) throw new FileError("The file is empty.");
}

function binaryFile(): FileError {
  return new FileError("This looks like a binary file, not UTF-8 text. Upload a .csv, .json or .jsonl text file.");
}
