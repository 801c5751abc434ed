import { logServerError } from "./logError";

/** Streams text pieces from an async generator as a download; an error mid-way is logged and ends the stream. */
export function downloadResponse(pieces: AsyncGenerator<string>, options: { filename: string; contentType: string; context: string }): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await pieces.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        logServerError(options.context, error);
        controller.error(new Error("export failed"));
      }
    },
  });
  return new Response(body, {
    headers: { "content-type": options.contentType, "content-disposition": `attachment; filename="${options.filename}"`, "cache-control": "no-store" },
  });
}
