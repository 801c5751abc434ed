// An /api/v1 JSON body over MAX_JSON_BODY_BYTES, sent to the real POST /api/v1/runs handler: refused with
// 413 payload_too_large by its Content-Length before a byte is read, and a chunked one (no Content-Length)
// by counting, having read no more than the limit and one chunk. The handler used to read any body whole
// (request.json()) before checking a field: 300 MB took the server past 1.2 GB.
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_BODY_BYTES } from "@/lib/api/jsonBody";

type Route = typeof import("@/app/api/v1/runs/route");
const CHUNK = 64 * 1024;
const ORIGIN = "http://127.0.0.1:3000";
let route: Route;

beforeAll(async () => {
  // As a server `npm start` started on loopback: sign-in off, each request addressed to loopback the local admin.
  process.env.ASSAY_ADDRESS_CHECKED = "127.0.0.1";
  for (const name of ["ASSAY_AUTH_SECRET", "ASSAY_HOST", "HOSTNAME"]) delete process.env[name];
  route = await import("@/app/api/v1/runs/route");
});

/** A body of `total` bytes (a JSON string that runs on), made only as the reader pulls it. */
function countedBody(total: number) {
  const seen = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (seen.pulled >= total) return controller.close();
        const chunk = new TextEncoder().encode(seen.pulled === 0 ? '{"datasetId": "' : "a".repeat(CHUNK));
        seen.pulled += chunk.length;
        controller.enqueue(chunk);
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

function startRun(body: ReadableStream<Uint8Array> | string, headers: Record<string, string> = {}) {
  const request = new Request(`${ORIGIN}/api/v1/runs`, {
    method: "POST",
    headers: { host: "127.0.0.1:3000", "content-type": "application/json", ...headers },
    body,
    duplex: "half",
  } as RequestInit);
  return route.POST(request, { params: Promise.resolve({}) });
}

describe("an /api/v1 JSON body over the limit", () => {
  it("is refused by its declared Content-Length before any byte is read", async () => {
    const { stream, seen } = countedBody(300 * 1024 * 1024);
    const response = await startRun(stream, { "content-length": String(300 * 1024 * 1024) });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: {
        code: "payload_too_large",
        message: "The request body is 300.0 MB, over the 4.0 MB limit for an /api/v1 JSON body.",
      },
    });
    expect(seen.pulled).toBe(0);
  });

  it("is refused by counting when it comes chunked without a Content-Length, the rest never read", async () => {
    const { stream, seen } = countedBody(300 * 1024 * 1024);
    const response = await startRun(stream);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: {
        code: "payload_too_large",
        message: "The request body is over the 4.0 MB limit for an /api/v1 JSON body.",
      },
    });
    expect(seen.pulled).toBeGreaterThan(MAX_JSON_BODY_BYTES);
    expect(seen.pulled).toBeLessThanOrEqual(MAX_JSON_BODY_BYTES + CHUNK);
    expect(seen.cancelled).toBe(true);
  });

  it("is refused by counting when its Content-Length understates it", async () => {
    const { stream, seen } = countedBody(8 * 1024 * 1024);
    const response = await startRun(stream, { "content-length": "100" });
    expect(response.status).toBe(413);
    expect(seen.pulled).toBeLessThanOrEqual(MAX_JSON_BODY_BYTES + CHUNK);
  });

  it("reads a body at the limit, and then checks its fields as before", async () => {
    // Exactly MAX_JSON_BODY_BYTES: valid JSON padded with spaces, refused for its fields (no datasetId), not its size.
    const json = '{"name": "padded"}';
    const padded = json + " ".repeat(MAX_JSON_BODY_BYTES - json.length);
    const response = await startRun(padded, { "content-length": String(MAX_JSON_BODY_BYTES) });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: "invalid_request", issues: [expect.objectContaining({ field: "datasetId" })] },
    });
    const broken = await startRun('{"datasetId": ');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({
      error: { code: "invalid_request", message: "The body is not valid JSON." },
    });
  });
});
