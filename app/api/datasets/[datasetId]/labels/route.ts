import { labelExportFilename } from "@/lib/export/exportFilename";
import { withTransportSecurity } from "@/lib/server/transportSecurity";
import { refusalResponse } from "@/lib/auth/guard";
import { checkRouteRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { getDataset } from "@/lib/db/datasets/datasetQueries";
import { describeRowIssue, FileError } from "@/lib/ingest/errors";
import { formatBytes, limitsFromEnv } from "@/lib/ingest/limits";
import { labelFilePieces } from "@/lib/labels/labelFile";
import { downloadResponse } from "@/lib/server/downloadResponse";
import { ImportAbandoned, runLabelFileUpload } from "@/lib/server/labelFileUpload";
import { logServerError } from "@/lib/server/logError";
import { checkSameOrigin } from "@/lib/server/sameOrigin";
import { parseExportFormat } from "@/lib/urlState/exportFormat";
import { searchParamsOf } from "@/lib/urlState/searchParams";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Params = { params: Promise<{ datasetId: string }> };

/** A dataset's current human labels as a file keyed by request_id (?format=csv|json), streamed. */
async function exportLabels(request: Request, { params }: Params): Promise<Response> {
  const access = await checkRouteRole("export", request.headers);
  if (!access.ok) return refusalResponse(access);
  const { datasetId } = await params;
  const format = parseExportFormat(searchParamsOf(new URL(request.url)), "csv");
  const db = getDb();
  const dataset = await getDataset(db, datasetId);
  if (!dataset) return new Response("No such dataset.", { status: 404 });
  return downloadResponse(labelFilePieces(db, datasetId, format), {
    filename: labelExportFilename(dataset.name, format),
    contentType: format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
    context: `label export of dataset ${datasetId}`,
  });
}

/**
 * Imports a label file (CSV, a JSON array or JSON Lines; the raw request
 * body) into a dataset, all or nothing: any issue writes nothing and every
 * issue comes back with its row, line and column. It takes a place among the
 * concurrent uploads (ASSAY_MAX_CONCURRENT_UPLOADS; it waits its turn, body
 * unread), stops when no bytes arrive for ASSAY_UPLOAD_IDLE_TIMEOUT_S, and
 * holds at most ASSAY_MAX_UPLOAD_ROWS records.
 */
async function importLabels(request: Request, { params }: Params): Promise<Response> {
  // A page on another site must not write labels: refused before anything is read.
  const origin = checkSameOrigin(request);
  if (!origin.ok) return Response.json({ ok: false, error: origin.message }, { status: 403 });
  const access = await checkRouteRole("labels.write", request.headers);
  if (!access.ok) return Response.json({ ok: false, error: access.message }, { status: access.status });
  const { datasetId } = await params;
  const db = getDb();
  if (!(await getDataset(db, datasetId)))
    return Response.json({ ok: false, error: "no such dataset" }, { status: 404 });
  const limits = limitsFromEnv();
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limits.maxFileBytes) {
    const error = `The file is ${formatBytes(declared)}, over the ${formatBytes(limits.maxFileBytes)} limit.`;
    return Response.json({ ok: false, error }, { status: 413 });
  }
  if (!request.body) return Response.json({ ok: false, error: "The file is empty." }, { status: 400 });
  try {
    const result = await runLabelFileUpload(db, {
      datasetId,
      body: request.body as unknown as AsyncIterable<Uint8Array>,
      contentType: request.headers.get("content-type"),
      // Signed in, the importer is who labelled (their email, as a label file would name them); the file's labelled_by is kept
      // as stated_by, except in an admin's import, which brings in several people's labels as the file names them.
      importedBy: access.user.local ? null : (access.user.email ?? access.user.name),
      trustsLabelledBy: !access.user.local && access.user.role === "admin",
      limits,
      signal: request.signal,
    });
    if (!result.ok) {
      const body = { ok: false, issueCount: result.issueCount, issues: result.issues.map(describeRowIssue) };
      return Response.json(body, { status: 422 });
    }
    return Response.json(result);
  } catch (error) {
    if (error instanceof ImportAbandoned) return Response.json({ ok: false, error: error.message }, { status: 499 });
    if (error instanceof FileError) return Response.json({ ok: false, error: error.message }, { status: 400 });
    const ref = logServerError("label import failed", error);
    return Response.json(
      { ok: false, error: `The import failed on the server and nothing was stored (ref ${ref}).` },
      {
        status: 500,
      },
    );
  }
}

export const GET = withTransportSecurity(exportLabels);
export const POST = withTransportSecurity(importLabels);
