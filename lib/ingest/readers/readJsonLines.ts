import type { RawRecord } from "./rawRecord";
import { oversizedRowMessage, splitLines } from "./splitLines";

/** JSON Lines: one object per non-blank line. Row numbers count data lines; errors also name the line. */
export async function* readJsonLines(texts: AsyncIterable<string>, maxRowChars: number): AsyncGenerator<RawRecord> {
  let row = 0;
  for await (const line of splitLines(texts, maxRowChars)) {
    if ("oversized" in line) {
      row += 1;
      yield {
        row,
        line: line.lineNumber,
        issue: { row, line: line.lineNumber, message: oversizedRowMessage(line.oversized, maxRowChars) },
      };
      continue;
    }
    const text = row === 0 ? line.text.replace(/^\uFEFF/, "") : line.text;
    if (text.trim() === "") continue;
    row += 1;
    try {
      yield { row, line: line.lineNumber, format: "json", value: JSON.parse(text) };
    } catch (error) {
      yield {
        row,
        line: line.lineNumber,
        issue: {
          row,
          line: line.lineNumber,
          message: `invalid JSON on line ${line.lineNumber} (${jsonErrorDetail(error)})`,
        },
      };
    }
  }
}

export function jsonErrorDetail(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // V8 appends the whole offending text to some messages; keep only the gist.
  return message.split("\n")[0].slice(0, 160);
}
