import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { getRunAggregates } from "@/lib/db/judgments/aggregateQueries";
import { listRunSummaries } from "@/lib/db/runs/runListQueries";
import { getRun, getRunProgress } from "@/lib/db/runs/runQueries";
import { runResultsCsv, runResultsJson } from "@/lib/export/runResults";
import { runExportFilename } from "@/lib/export/exportFilename";
import { downloadResponse } from "@/lib/server/downloadResponse";
import { notFound } from "../apiErrors";
import { RUN_STATUSES, runDetailSchema, runListSchema, runSummarySchema } from "../apiSchemas";
import { defineApiRoute } from "../defineApiRoute";

export const runIdParams = z.object({ runId: z.string().min(1).max(200) });

type StoredRunSummary = {
  id: string;
  name: string;
  status: string;
  tags: string[];
  judgeProvider: string;
  judgeModel: string;
  generationModel: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  dataset: { id: string; name: string };
};

function apiRunSummary(run: StoredRunSummary): z.input<typeof runSummarySchema> {
  return {
    id: run.id,
    name: run.name,
    datasetId: run.dataset.id,
    datasetName: run.dataset.name,
    status: z.enum(RUN_STATUSES).parse(run.status),
    tags: run.tags,
    judge: { provider: run.judgeProvider, model: run.judgeModel },
    generationModel: run.generationModel,
    createdAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    url: `/runs/${run.id}`,
  };
}

export const listRunsRoute = defineApiRoute(
  {
    method: "get",
    path: "/api/v1/runs",
    operationId: "listRuns",
    summary: "List runs, newest first, filtered by dataset, status and tag",
    tag: "Runs",
    action: "data.read",
    query: z.object({
      datasetId: z.string().max(200).optional(),
      status: z.enum(RUN_STATUSES).optional(),
      tag: z.string().max(200).optional().meta({ description: "One whole tag, e.g. `branch=main`" }),
      limit: z.coerce.number().int().min(1).max(500).default(50),
    }),
    response: runListSchema,
  },
  async ({ query }) => ({ runs: (await listRunSummaries(getDb(), query)).map(apiRunSummary) }),
);

export const getRunRoute = defineApiRoute(
  {
    method: "get",
    path: "/api/v1/runs/{runId}",
    operationId: "getRun",
    summary: "A run's status, progress and aggregate metrics",
    description:
      "Progress counts judgments by status; `fractionDone` is what a progress bar shows. Aggregates carry Agent Evaluation's names (`response/llm_judged/correctness/rating/percentage`) and are read from counts kept as judgments are written, so polling is cheap whatever the run's size.",
    tag: "Runs",
    action: "data.read",
    params: runIdParams,
    response: runDetailSchema,
    errors: [404],
  },
  async ({ params }) => readRunDetail(params.runId),
);

/** A run as the API shows it: status, progress and aggregates; 404 when it does not exist. */
export async function readRunDetail(runId: string): Promise<z.input<typeof runDetailSchema>> {
  const db = getDb();
  const run = await getRun(db, runId);
  if (!run) throw notFound(`Run ${runId}`);
  const [progress, aggregates] = await Promise.all([
    getRunProgress(db, run.id),
    getRunAggregates(db, run.id, run.config.metrics),
  ]);
  const { judgments } = progress;
  const finished = judgments.done + judgments.error + judgments.skipped;
  return {
    ...apiRunSummary({ ...run, dataset: run.dataset }),
    errorMessage: run.errorMessage,
    pauseReason: run.pauseReason,
    metrics: run.config.metrics,
    progress: {
      judgments,
      generations: progress.generations,
      fractionDone: judgments.total === 0 ? (run.status === "completed" ? 1 : 0) : finished / judgments.total,
    },
    aggregates: aggregates.map(({ passed: _passed, failed: _failed, ...aggregate }) => aggregate),
  };
}

export const runResultsRoute = defineApiRoute(
  {
    method: "get",
    path: "/api/v1/runs/{runId}/results",
    operationId: "getRunResults",
    summary: "A run's per-row results, streamed as JSON or CSV with Agent Evaluation's column names",
    tag: "Runs",
    action: "export",
    params: runIdParams,
    query: z.object({ format: z.enum(["json", "csv"]).default("json") }),
    response: z
      .object({
        run: z.record(z.string(), z.unknown()),
        aggregates: z.record(z.string(), z.number().nullable()),
        aggregate_details: z.unknown(),
        rows: z.array(z.record(z.string(), z.unknown())),
      })
      .meta({
        id: "RunResults",
        description: "The run's settings and one record per row, as the run page's JSON export",
      }),
    alternativeMedia: [{ mediaType: "text/csv", description: "The same rows as CSV (format=csv)" }],
    errors: [404],
  },
  async ({ params, query }) => {
    const db = getDb();
    const run = await getRun(db, params.runId);
    if (!run) throw notFound(`Run ${params.runId}`);
    return downloadResponse(query.format === "csv" ? runResultsCsv(db, run.id) : runResultsJson(db, run.id), {
      filename: runExportFilename(run, query.format),
      contentType: query.format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      context: `API export of run ${run.id}`,
    });
  },
);
