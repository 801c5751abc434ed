import { formatBytes, limitsFromEnv } from "@/lib/ingest/limits";
import { ApiError } from "./apiErrors";

/**
 * The body of an upload operation (a dataset or a label file) as a stream, with the server's limits, after the
 * checks that need no byte of it: a declared size over the limit (413) and no body at all (400).
 */
export function uploadBodyOf(request: Request, what: string) {
  const limits = limitsFromEnv();
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limits.maxFileBytes)
    throw new ApiError(
      413,
      "payload_too_large",
      `The file is ${formatBytes(declared)}, over the ${formatBytes(limits.maxFileBytes)} limit.`,
    );
  if (!request.body) throw new ApiError(400, "invalid_upload", `The body is empty: send the ${what} as the body.`);
  return { body: request.body as unknown as AsyncIterable<Uint8Array>, limits };
}
