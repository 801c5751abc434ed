import { FileError } from "./errors";
import { formatBytes } from "./limits";

export type ByteCounter = { bytes: number };

type TextEncodingName = "utf-8" | "utf-16le" | "utf-16be";

/**
 * The first bytes are read whole before any is decoded: enough for a
 * byte-order mark, and for a binary file's NUL to be seen before a byte that
 * is merely not UTF-8 (a PNG's first byte is 0x89), however small the
 * network chunks are.
 */
const SNIFF_BYTES = 1024;

/**
 * Decodes an uploaded byte stream as text, piece by piece, so the file is
 * never held whole. UTF-8 unless the file starts with a UTF-16 byte-order mark
 * (what Excel's "Unicode text" and many Windows tools write), little- or
 * big-endian. TextDecoder in streaming mode carries a code unit or surrogate
 * pair cut by a chunk boundary over to the next chunk. Rejects binary content
 * (a NUL) and text that is not valid in its encoding, each with its own
 * message, and files over the size limit; counts bytes for progress.
 */
export async function* decodeUploadText(
  chunks: AsyncIterable<Uint8Array>,
  maxFileBytes: number,
  counter: ByteCounter = { bytes: 0 },
): AsyncGenerator<string> {
  let encoding: TextEncodingName | null = null;
  let decoder: TextDecoder | null = null;
  let head: Uint8Array = new Uint8Array(0); // the first bytes, until SNIFF_BYTES have come
  let line = 1; // of the text decoded so far, for the position of an encoding error
  let sawText = false;

  const decodePiece = (bytes: Uint8Array, final: boolean): string => {
    if (encoding === null || decoder === null) {
      encoding = detectEncoding(bytes);
      decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: false });
    }
    // In UTF-8 a NUL byte is the mark of a binary file; UTF-16 text has NUL bytes in every ASCII character.
    if (encoding === "utf-8" && bytes.indexOf(0) !== -1) throw binaryFile();
    let text: string;
    try {
      text = final ? decoder.decode(bytes) : decoder.decode(bytes, { stream: true });
    } catch {
      throw invalidText(encoding, line + newlinesBeforeInvalid(encoding, bytes));
    }
    if (encoding !== "utf-8" && text.includes("\0")) throw binaryFile();
    line += countNewlines(text);
    if (!sawText && text.trim().length > 0) sawText = true;
    return text;
  };

  for await (const chunk of chunks) {
    counter.bytes += chunk.byteLength;
    if (counter.bytes > maxFileBytes) {
      throw new FileError(`The file is larger than the ${formatBytes(maxFileBytes)} limit.`);
    }
    let bytes = chunk;
    if (decoder === null) {
      head = concatBytes(head, chunk);
      if (head.length < SNIFF_BYTES) continue;
      bytes = head;
    }
    const text = decodePiece(bytes, false);
    if (text.length > 0) yield text;
  }
  const tail = decodePiece(decoder === null ? head : new Uint8Array(0), true);
  if (tail.length > 0) yield tail;
  if (!sawText) throw new FileError("The file is empty.");
}

function detectEncoding(bytes: Uint8Array): TextEncodingName {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return "utf-8";
}

/** Line breaks before the first byte that does not decode (found again without `fatal`, where it becomes U+FFFD). */
function newlinesBeforeInvalid(encoding: TextEncodingName, bytes: Uint8Array): number {
  const text = new TextDecoder(encoding).decode(bytes);
  const bad = text.indexOf("\uFFFD");
  return countNewlines(bad === -1 ? text : text.slice(0, bad));
}

function countNewlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) count += 1;
  return count;
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return joined;
}

function binaryFile(): FileError {
  return new FileError("This looks like a binary file, not UTF-8 text. Upload a .csv, .json or .jsonl text file.");
}

function invalidText(encoding: TextEncodingName, line: number): FileError {
  if (encoding === "utf-8")
    return new FileError(
      `This file is not valid UTF-8 text (the first byte that is not UTF-8 is on line ${line}); it was probably saved in another encoding, such as Windows-1252 or Latin-1. Save it as UTF-8 (in Excel: Save As, "CSV UTF-8") and upload it again.`,
    );
  return new FileError(
    `This file starts with a UTF-16 byte-order mark but is not valid UTF-16 text (line ${line}). Save it as UTF-8 and upload it again.`,
  );
}
