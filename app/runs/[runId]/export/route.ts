import { parseExportFormat } from "@/lib/urlState/exportFormat";
import { searchParamsOf } from "@/lib/urlState/searchParams";
import { refusalResponse } from "@/lib/auth/guard";
import { checkRouteRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { getRun } from "@/lib/db/runs/runQueries";
import { runExportFilename } from "@/lib/export/exportFilename";
import { runResultsCsv, runResultsJson } from "@/lib/export/runResults";
import { downloadResponse } from "@/lib/server/downloadResponse";

export const dynamic = "force-dynamic";

/** Streams a run's results as JSON or CSV with Agent Evaluation's column names (?format=json|csv). */
export async function GET(request: Request, { params }: { params: Promise<{ runId: string }> }): Promise<Response> {
  const access = await checkRouteRole("export", request.headers);
  if (!access.ok) return refusalResponse(access);
  const { runId } = await params;
  const format = parseExportFormat(searchParamsOf(new URL(request.url)), "json");
  const db = getDb();
  const run = await getRun(db, runId);
  if (!run) return new Response("No such run.", { status: 404 });
  return downloadResponse(format === "csv" ? runResultsCsv(db, runId) : runResultsJson(db, runId), {
    filename: runExportFilename(run, format),
    contentType: format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
    context: `export of run ${runId}`,
  });
}
