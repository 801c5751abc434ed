import { checkRouteRole } from "@/lib/auth/requireRole";
import { withTransportSecurity } from "@/lib/server/transportSecurity";
import { describeRowIssue } from "@/lib/ingest/errors";
import { formatBytes, limitsFromEnv } from "@/lib/ingest/limits";
import { uploadQuerySchema, type UploadEvent } from "@/lib/ingest/uploadProtocol";
import { firstIssue } from "@/lib/ingest/normalizeRequest";
import { logServerError } from "@/lib/server/logError";
import { runDatasetUpload } from "@/lib/server/datasetUpload";
import { checkSameOrigin } from "@/lib/server/sameOrigin";
import { firstValues, searchParamsOf } from "@/lib/urlState/searchParams";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * Streams an uploaded file (the raw request body) into a new dataset. The body
 * is read piece by piece and rows are written in batches, so memory stays
 * bounded whatever the file size. Progress and the result go back as NDJSON.
 */
async function upload(request: Request): Promise<Response> {
  // Another site's page may POST here too (a text/plain body needs no preflight): refuse before reading anything.
  const origin = checkSameOrigin(request);
  if (!origin.ok) return resultResponse({ fileError: origin.message }, 403);
  const access = await checkRouteRole("dataset.upload", request.headers);
  if (!access.ok) return resultResponse({ fileError: access.message }, access.status);
  const createdById = access.user.local ? null : access.user.id;
  const url = new URL(request.url);
  const query = uploadQuerySchema.safeParse(firstValues(searchParamsOf(url)));
  if (!query.success) return resultResponse({ fileError: `Bad upload request: ${firstIssue(query.error)}` }, 400);

  const limits = limitsFromEnv();
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limits.maxFileBytes) {
    return resultResponse(
      { fileError: `The file is ${formatBytes(declared)}, over the ${formatBytes(limits.maxFileBytes)} limit.` },
      413,
    );
  }
  if (!request.body) return resultResponse({ fileError: "The file is empty." }, 400);
  const body = request.body as unknown as AsyncIterable<Uint8Array>;

  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (event: UploadEvent) => controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
      try {
        const result = await runDatasetUpload({
          body,
          filename: query.data.filename,
          name: query.data.name,
          mode: query.data.mode,
          createdById,
          limits,
          signal: request.signal,
          // Waiting for a free slot (ASSAY_MAX_CONCURRENT_UPLOADS), the panel says so.
          onQueued: (ahead, running) =>
            send({
              type: "progress",
              bytes: 0,
              rows: 0,
              issues: 0,
              queued: `Queued: ${running} upload${running === 1 ? " is" : "s are"} in progress${ahead > 0 ? ` and ${ahead} ${ahead === 1 ? "is" : "are"} waiting ahead of yours` : ""}. Yours starts when one finishes.`,
            }),
          // A progress line without `queued`: the panel stops saying it waits as soon as it runs, not at its first rows.
          onStarted: () => send({ type: "progress", bytes: 0, rows: 0, issues: 0 }),
          onProgress: (progress) => send({ type: "progress", ...progress }),
        });
        send({ type: "result", ...result, issues: result.issues.map(describeRowIssue) });
      } catch (error) {
        const ref = logServerError("dataset upload failed", error);
        send({
          type: "result",
          ok: false,
          fileError: `The upload failed on the server and nothing was stored (ref ${ref}).`,
          issues: [],
          issueCount: 0,
          warnings: [],
        });
      } finally {
        controller.close();
      }
    },
  });
  return new Response(stream, {
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" },
  });
}

export const POST = withTransportSecurity(upload);

function resultResponse(partial: { fileError: string }, status: number): Response {
  const event: UploadEvent = { type: "result", ok: false, issues: [], issueCount: 0, warnings: [], ...partial };
  return new Response(`${JSON.stringify(event)}\n`, {
    status,
    headers: { "content-type": "application/x-ndjson; charset=utf-8" },
  });
}
