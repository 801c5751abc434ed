import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

export class ExportWriteError extends Error {
  name = "ExportWriteError";
}

/**
 * Writes an export to `target` so that the file is either complete or absent:
 * the text goes to a temporary file beside it (same folder, so the rename is
 * atomic) and is renamed over `target` only once every piece is written and
 * flushed. On any failure the temporary file is removed and a previous file at
 * `target` is left as it was.
 */
export async function writeExportFile(target: string, pieces: AsyncGenerator<string>): Promise<void> {
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.partial`);
  try {
    await pipeline(Readable.from(pieces), fs.createWriteStream(temporary));
    fs.renameSync(temporary, target);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    const detail = error instanceof Error ? error.message : String(error);
    throw new ExportWriteError(`the results could not be written to ${target}: ${firstLines(detail)}`, {
      cause: error,
    });
  }
}

/** Prisma and SQLite messages run to many lines; the CLI shows the gist, without a stack trace. */
function firstLines(message: string): string {
  const lines = message
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  const text = lines.slice(0, 3).join(" ");
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}
