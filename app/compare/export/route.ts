import { z } from "zod";
import { parseCompareQuery } from "@/lib/urlState/compareQuery";
import { parseExportFormat } from "@/lib/urlState/exportFormat";
import { firstValue, searchParamsOf } from "@/lib/urlState/searchParams";
import { refusalResponse } from "@/lib/auth/guard";
import { checkRouteRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { getRun } from "@/lib/db/runs/runQueries";
import { comparisonStatisticsCsv, exportedComparison, flippedRowsCsv } from "@/lib/export/comparisonStatistics";
import { comparisonExportFilename } from "@/lib/export/exportFilename";
import { comparisonResultsCsv, comparisonResultsJson } from "@/lib/export/runResults";
import { downloadResponse } from "@/lib/server/downloadResponse";
import { readPairwiseAgreement } from "@/lib/compare/pairwiseAgreement";
import { listPairwiseComparisons } from "@/lib/db/pairwise/pairwiseComparisons";
import { csvLine } from "@/lib/export/csv";
import { PAIRWISE_COLUMNS, pairwiseCsv } from "@/lib/export/pairwiseCsv";

export const dynamic = "force-dynamic";

/**
 * A CSV holds one table: the rows (default), the per-metric statistics, the flipped rows, or the pairwise
 * judgment of the first candidate against the baseline (its newest) with people's A/B verdicts. JSON holds the first three.
 */
const partSchema = z.enum(["rows", "statistics", "flips", "pairwise"]).catch("rows");

/**
 * Streams a comparison (?runs=a,b&baseline=a&format=csv|json[&part=rows|statistics|flips][&correction=bh|none]). JSON: the
 * statistics per metric, the flipped rows and every run's rows; CSV: one line per run and dataset row, or
 * with part=statistics one line per (metric, candidate), with part=flips one per flipped row.
 */
export async function GET(request: Request): Promise<Response> {
  const access = await checkRouteRole("export", request.headers);
  if (!access.ok) return refusalResponse(access);
  const searchParams = searchParamsOf(new URL(request.url));
  const query = parseCompareQuery(searchParams);
  const format = parseExportFormat(searchParams, "csv");
  const part = format === "csv" ? partSchema.parse(firstValue(searchParams.part)) : "rows";
  const db = getDb();
  const runs = await Promise.all(query.runs.map((id) => getRun(db, id)));
  if (runs.length === 0 || runs.some((run) => !run)) return new Response("Unknown runs.", { status: 404 });
  const baselineId = query.baseline && query.runs.includes(query.baseline) ? query.baseline : query.runs[0];
  const ordered = [baselineId, ...query.runs.filter((id) => id !== baselineId)];
  return downloadResponse(piecesOf(format, part), {
    filename: comparisonExportFilename(ordered, format, part === "rows" ? undefined : part),
    contentType: format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
    context: "comparison export",
  });

  async function* piecesOf(format: "csv" | "json", part: z.infer<typeof partSchema>): AsyncGenerator<string> {
    if (format === "json") return yield* comparisonResultsJson(db, ordered, baselineId, query.correction);
    if (part === "rows") return yield* comparisonResultsCsv(db, ordered);
    if (part === "pairwise") return yield* pairwiseExport(ordered[0], ordered[1]);
    const comparison = await exportedComparison(db, ordered, baselineId, { correction: query.correction });
    if (!comparison) throw new Error("a compared run no longer exists");
    yield* part === "statistics" ? comparisonStatisticsCsv(comparison) : flippedRowsCsv(db, comparison);
  }
}

/** The newest pairwise comparison of the candidate against the baseline, with people's verdicts on its pairs. */
async function* pairwiseExport(baselineId: string, candidateId: string | undefined): AsyncGenerator<string> {
  const db = getDb();
  const [comparison] = candidateId ? await listPairwiseComparisons(db, baselineId, candidateId) : [];
  const [baseline, candidate] = await Promise.all([
    getRun(db, baselineId),
    candidateId ? getRun(db, candidateId) : null,
  ]);
  if (!comparison || !baseline || !candidate) {
    yield csvLine([...PAIRWISE_COLUMNS]);
    return;
  }
  const { preferences } = await readPairwiseAgreement(db, comparison, {
    baselineGenerates: baseline.generationModel !== null,
    candidateGenerates: candidate.generationModel !== null,
  });
  yield* pairwiseCsv(db, comparison, preferences);
}
