import { FileError } from "../errors";
import type { RawRecord } from "./rawRecord";
import { jsonErrorDetail } from "./readJsonLines";
import { oversizedRowMessage } from "./splitLines";

/**
 * A .json file holding one array of objects, read element by element so the
 * whole array never sits in memory. The scanner only tracks strings and
 * nesting depth to find where each top-level element ends; JSON.parse does
 * the real parsing of each element.
 */
export async function* readJsonArray(texts: AsyncIterable<string>, maxRowChars: number): AsyncGenerator<RawRecord> {
  let line = 1;
  let column = 0; // of the character being read, 1-based
  let phase = "before" as "before" | "between" | "element" | "after";
  let depth = 0;
  let inString = false;
  let escaped = false;
  let buffer = "";
  let oversized = 0;
  let elementLine = 1;
  let row = 0;
  // Where the last comma between elements was, until an element follows it: JSON allows no comma before the closing ].
  let pendingComma: { line: number; column: number } | null = null;

  const finishElement = (): RawRecord => {
    row += 1;
    const start = elementLine;
    if (oversized > 0) {
      const chars = oversized;
      oversized = 0;
      return { row, line: start, issue: { row, line: start, message: oversizedRowMessage(chars, maxRowChars) } };
    }
    const text = buffer;
    buffer = "";
    try {
      return { row, line: start, format: "json", value: JSON.parse(text) };
    } catch (error) {
      return {
        row,
        line: start,
        issue: {
          row,
          line: start,
          message: `invalid JSON in the element starting on line ${start} (${jsonErrorDetail(error)})`,
        },
      };
    }
  };

  for await (const chunk of texts) {
    const text: string = phase === "before" && line === 1 ? chunk.replace(/^\uFEFF/, "") : chunk;
    let segmentStart = 0; // start of the element text still to copy from this chunk
    for (let i = 0; i < text.length; i++) {
      const ch: number = text.charCodeAt(i);
      column += 1;
      const charLine = line;
      const charColumn = column;
      if (ch === 10) {
        line += 1;
        column = 0;
      }
      if (phase === "element") {
        if (inString) {
          if (escaped) escaped = false;
          else if (ch === 92 /* \ */) escaped = true;
          else if (ch === 34 /* " */) inString = false;
          continue;
        }
        if (ch === 34) inString = true;
        else if (ch === 123 || ch === 91) depth += 1;
        else if ((ch === 125 || ch === 93) && depth > 0) depth -= 1;
        else if (depth === 0 && (ch === 44 /* , */ || ch === 93) /* ] */) {
          append(text.slice(segmentStart, i));
          yield finishElement();
          phase = ch === 93 ? "after" : "between";
          if (ch === 44) pendingComma = { line: charLine, column: charColumn };
        }
        continue;
      }
      if (isWhitespace(ch)) continue;
      if (phase === "before") {
        if (ch === 91) {
          phase = "between";
          continue;
        }
        if (ch === 123)
          throw new FileError(
            "A .json upload must be an array of objects ([{...}, {...}]); this file holds a single object. For one object per line, use .jsonl.",
          );
        throw new FileError(
          `This .json file is not a JSON array (it starts with "${String.fromCharCode(ch)}" on line ${line}).`,
        );
      }
      if (phase === "after")
        throw new FileError(`Unexpected content after the closing ] of the array, on line ${line}.`);
      // phase "between": the next element starts here, or the array closes.
      if (ch === 93) {
        if (pendingComma)
          throw new FileError(
            `The JSON array has a comma after its last element (line ${pendingComma.line}, column ${pendingComma.column}), which JSON does not allow; remove it.`,
          );
        phase = "after";
        continue;
      }
      if (ch === 44) {
        pendingComma = { line: charLine, column: charColumn };
        row += 1;
        yield { row, line, issue: { row, line, message: "empty array element (two commas in a row)" } };
        continue;
      }
      phase = "element";
      pendingComma = null;
      elementLine = line;
      depth = 0;
      segmentStart = i;
      i -= 1; // re-read this character in element mode (it may open a string or an object)
      column -= 1;
    }
    if (phase === "element") append(text.slice(segmentStart));
  }
  if (phase === "before") throw new FileError("The file is empty.");
  if (phase !== "after")
    throw new FileError(
      `The JSON array is not closed: the file ends on line ${line} before its final ]. Is it truncated?`,
    );

  function append(piece: string): void {
    if (oversized > 0) {
      oversized += piece.length;
      return;
    }
    if (buffer.length + piece.length > maxRowChars) {
      oversized = buffer.length + piece.length;
      buffer = "";
      return;
    }
    buffer += piece;
  }
}

function isWhitespace(ch: number): boolean {
  return ch === 32 || ch === 10 || ch === 13 || ch === 9;
}
