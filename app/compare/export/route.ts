import { parseCompareQuery } from "@/lib/urlState/compareQuery";
import { parseExportFormat } from "@/lib/urlState/exportFormat";
import { searchParamsOf } from "@/lib/urlState/searchParams";
import { refusalResponse } from "@/lib/auth/guard";
import { checkRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { getRun } from "@/lib/db/runQueries";
import { comparisonResultsCsv, comparisonResultsJson } from "@/lib/export/runResults";
import { downloadResponse } from "@/lib/server/downloadResponse";

export const dynamic = "force-dynamic";

/** Streams the compared runs' results (?runs=a,b&format=csv|json), one line per run and dataset row. */
export async function GET(request: Request): Promise<Response> {
  const access = await checkRole("export", request.headers);
  if (!access.ok) return refusalResponse(access);
  const searchParams = searchParamsOf(new URL(request.url));
  const query = parseCompareQuery(searchParams);
  const format = parseExportFormat(searchParams, "csv");
  const db = getDb();
  const runs = await Promise.all(query.runs.map((id) => getRun(db, id)));
  if (runs.length === 0 || runs.some((run) => !run)) return new Response("Unknown runs.", { status: 404 });
  return downloadResponse(
    format === "csv" ? comparisonResultsCsv(db, query.runs) : comparisonResultsJson(db, query.runs),
    {
      filename: `comparison.${format}`,
      contentType: format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      context: "comparison export",
    },
  );
}
