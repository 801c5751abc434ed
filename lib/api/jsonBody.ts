import { formatBytes } from "@/lib/ingest/limits";
import { ApiError } from "./apiErrors";

/**
 * The most an /api/v1 JSON body may hold. /api/v1 is outside proxy.ts's matcher (so uploads stream), so no
 * layer before the handler bounds it, and reading a body whole to parse it costs several times its size:
 * one 300 MB body took the server from 284 MB to 1.24 GB before zod refused a 200-character field.
 *
 * Why 4 MB: the largest body is a run request (POST /api/v1/runs, lib/engine/runRequest.ts), bounded by
 * the engine's own limits (lib/engine/runConfig.ts): 20 custom judges (instructions up to 4,000 characters)
 * and 20 G-Eval judges (criteria 2,000, 12 steps of 500, 11 rubric outcomes of 500), 100 metric names,
 * 20 tags, a system prompt of 8,000. Every field at its maximum is about 400 KB of JSON; with each of the 40
 * judges carrying an alignment as Assay writes one (8 labelled examples within 3,000 tokens, 2,000
 * characters of guidance: about 16 KB) it is 1.04 MB, or about 3.1 MB if every character took 3 bytes of
 * UTF-8. A real run request, with a few judges, is a few KB. Every other JSON body (an alignment's metric and
 * guidance, a decision, a rejudge's choice) is under 3 KB. Uploads (`rawBody`) stream and keep their own limits.
 */
export const MAX_JSON_BODY_BYTES = 4 * 1024 * 1024;

/**
 * A request's JSON body, refused with 413 `payload_too_large` when it is over `maxBytes`: by its declared
 * Content-Length before a byte is read, else by counting the bytes as they arrive (a chunked body has no
 * Content-Length, and a declared one may lie), so no more than `maxBytes` and one chunk are ever held.
 */
export async function readJsonBody(request: Request, maxBytes: number = MAX_JSON_BODY_BYTES): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type))
    throw new ApiError(400, "invalid_request", "Send the body as JSON (Content-Type: application/json).");
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes)
    throw tooLarge(`The request body is ${formatBytes(declared)}, over the ${formatBytes(maxBytes)} limit`);
  const text = new TextDecoder().decode(await readAtMost(request.body, maxBytes));
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, "invalid_request", "The body is not valid JSON.");
  }
}

async function readAtMost(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // Tells the sender's side to stop; the rest of the body is never read.
      void reader.cancel().catch(() => undefined);
      throw tooLarge(`The request body is over the ${formatBytes(maxBytes)} limit`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function tooLarge(what: string): ApiError {
  return new ApiError(413, "payload_too_large", `${what} for an /api/v1 JSON body.`);
}
