import { uploadEventSchema, type UploadEvent } from "@/lib/ingest/uploadProtocol";

export type UploadResult = Extract<UploadEvent, { type: "result" }>;

/** What the upload route's NDJSON stream has said so far. */
export type UploadStreamState = {
  /** Characters of the response already read: only whole lines past this are new. */
  parsedUpTo: number;
  rowsRead: number;
  /** While the upload waits for a free slot (ASSAY_MAX_CONCURRENT_UPLOADS), the server's words for it; null once it runs. */
  queued: string | null;
  result: UploadResult | null;
};

export const INITIAL_UPLOAD_STREAM: UploadStreamState = { parsedUpTo: 0, rowsRead: 0, queued: null, result: null };

/**
 * Reads the complete lines the response text has gained since `state`: a queued line says the upload
 * waits; any later progress line means it runs (rows counted); a result line ends it. A partial last
 * line waits for the rest; a foreign line (a proxy's error page) is ignored, and the caller's status
 * check reports the missing result.
 */
export function readUploadEvents(text: string, state: UploadStreamState): UploadStreamState {
  let next = state;
  let newline = text.indexOf("\n", next.parsedUpTo);
  while (newline !== -1) {
    const line = text.slice(next.parsedUpTo, newline).trim();
    next = { ...next, parsedUpTo: newline + 1 };
    const event = line ? parseEvent(line) : null;
    if (event?.type === "progress")
      next = event.queued ? { ...next, queued: event.queued } : { ...next, queued: null, rowsRead: event.rows };
    else if (event?.type === "result") next = { ...next, queued: null, result: event };
    newline = text.indexOf("\n", next.parsedUpTo);
  }
  return next;
}

function parseEvent(line: string): UploadEvent | null {
  try {
    const parsed = uploadEventSchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
