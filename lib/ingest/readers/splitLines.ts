import { formatBytes } from "../limits";

export type Line = { lineNumber: number; text: string } | { lineNumber: number; oversized: number };

/**
 * Splits streamed text into lines with their 1-based numbers. A line longer
 * than maxLineChars is reported as oversized and skipped without buffering it,
 * so one huge line cannot exhaust memory.
 */
export async function* splitLines(texts: AsyncIterable<string>, maxLineChars: number): AsyncGenerator<Line> {
  let pending = "";
  let lineNumber = 1;
  let skipping = 0; // >0 while discarding an oversized line; counts its chars

  for await (const text of texts) {
    let start = 0;
    while (start < text.length) {
      const newline = text.indexOf("\n", start);
      const end = newline === -1 ? text.length : newline;
      const piece = text.slice(start, end);
      if (skipping > 0) {
        skipping += piece.length;
      } else if (pending.length + piece.length > maxLineChars) {
        skipping = pending.length + piece.length;
        pending = "";
      } else {
        pending += piece;
      }
      if (newline === -1) break;
      yield skipping > 0 ? { lineNumber, oversized: skipping } : { lineNumber, text: stripCr(pending) };
      pending = "";
      skipping = 0;
      lineNumber += 1;
      start = newline + 1;
    }
  }
  if (skipping > 0) yield { lineNumber, oversized: skipping };
  else if (pending.length > 0) yield { lineNumber, text: stripCr(pending) };
}

function stripCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

export function oversizedRowMessage(chars: number, maxChars: number): string {
  return `the row is about ${formatBytes(chars)}, over the ${formatBytes(maxChars)} limit for one row`;
}
