import { logServerError } from "./logError";

type DownloadOptions = { filename: string; contentType: string; context: string };

/**
 * Streams text pieces from an async generator as a download.
 *
 * A download must never look complete when it is not. So the first piece is
 * produced before the response exists: a failure there (the usual case: a bad
 * query fails on the first page) answers 500 with a reference. A failure after
 * bytes went out errors the body stream, which makes the server destroy the
 * connection instead of ending the chunked body: the client's read fails
 * (fetch rejects, curl exits non-zero) rather than saving a truncated file.
 * Both are logged with the reference.
 */
export async function downloadResponse(pieces: AsyncGenerator<string>, options: DownloadOptions): Promise<Response> {
  let first: IteratorResult<string>;
  try {
    first = await pieces.next();
  } catch (error) {
    const ref = logServerError(options.context, error);
    return new Response(`The export failed (ref ${ref}). The error is in the server log.\n`, {
      status: 500,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
  }
  const encoder = new TextEncoder();
  let pending: IteratorResult<string> | null = first;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = pending ?? (await pieces.next());
        pending = null;
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        const ref = logServerError(`${options.context}: failed after the download started, connection aborted`, error);
        controller.error(new Error(`export failed (ref ${ref})`));
      }
    },
    async cancel() {
      // The client went away: stop reading the database.
      await pieces.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "content-type": options.contentType,
      "content-disposition": `attachment; filename="${options.filename}"`,
      "cache-control": "no-store",
    },
  });
}
