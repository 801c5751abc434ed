import { z } from "zod";
import { summarizeComparison } from "@/lib/compare/pairwiseResults";
import { getDb } from "@/lib/db/client";
import { getPairwiseComparison, type StoredPairwiseComparison } from "@/lib/db/pairwise/pairwiseComparisons";
import { getRun } from "@/lib/db/runs/runQueries";
import { DEFAULT_ALPHA } from "@/lib/stats";
import { resumePairwiseFromRequest, startPairwiseFromRequest } from "@/lib/server/startPairwiseRequest";
import { ApiError, notFound } from "../apiErrors";
import { defineApiRoute } from "../defineApiRoute";
import { pairwiseDetail } from "../pairwiseDetail";
import {
  pairwiseDetailSchema,
  resumePairwiseBodySchema,
  startPairwiseBodySchema,
  type PairwiseDetail,
} from "../pairwiseSchemas";
import { runIdParams } from "./runRoutes";

const comparisonIdParams = z.object({ comparisonId: z.string().min(1).max(200) });

/** A comparison summarised on its own (its criteria each a family of one): compare reads it with the metrics. */
async function detailOf(comparison: StoredPairwiseComparison): Promise<PairwiseDetail> {
  const db = getDb();
  const [baseline, candidate] = await Promise.all([
    getRun(db, comparison.baselineRunId),
    getRun(db, comparison.candidateRunId),
  ]);
  const side = (id: string, run: typeof baseline) => ({
    id,
    name: run?.name ?? id,
    generationModel: run?.generationModel ?? null,
  });
  return pairwiseDetail(
    await summarizeComparison(
      db,
      comparison,
      side(comparison.baselineRunId, baseline),
      side(comparison.candidateRunId, candidate),
      DEFAULT_ALPHA,
    ),
  );
}

export const startPairwiseRoute = defineApiRoute(
  {
    method: "post",
    path: "/api/v1/runs/{runId}/pairwise",
    operationId: "startPairwise",
    summary: "Judge the run's responses against a baseline run's, pair by pair (A/B), in both orders by default",
    description:
      "For every row the two runs pair on (the same dataset, or two uploads paired by request_id and request), a judge says which response better answers the request, or tie, once per criterion and order. Both orders by default: a pair with the same winner both ways is that winner, otherwise a tie marked position-dependent. Answers 202 with the comparison, `judging`; follow it with GET /api/v1/pairwise/{comparisonId}. The configured judge model is used, or the offline approximation without one. 409 when the runs cannot be paired or a run is still generating.",
    tag: "Compare",
    action: "run.start",
    params: runIdParams,
    body: startPairwiseBodySchema,
    response: pairwiseDetailSchema,
    successStatus: 202,
    errors: [404, 409],
  },
  async ({ params, body, user }) => {
    const db = getDb();
    if (!(await getRun(db, params.runId))) throw notFound(`Run ${params.runId}`);
    if (!(await getRun(db, body.baseline))) throw notFound(`Run ${body.baseline}`);
    const started = await startPairwiseFromRequest(db, user, {
      baselineRunId: body.baseline,
      candidateRunId: params.runId,
      criteria: body.criteria,
      orders: body.orders,
      seed: body.seed,
      concurrency: body.concurrency,
      budget: body.budget,
    });
    if (!started.ok)
      throw new ApiError(
        started.kind === "forbidden" ? 403 : 409,
        started.kind === "forbidden" ? "forbidden" : "conflict",
        started.message,
      );
    return detailOf(started.comparison);
  },
);

export const getPairwiseRoute = defineApiRoute(
  {
    method: "get",
    path: "/api/v1/pairwise/{comparisonId}",
    operationId: "getPairwise",
    summary: "A pairwise comparison: its progress, then each criterion's result and the judge's diagnostics",
    tag: "Compare",
    action: "data.read",
    params: comparisonIdParams,
    response: pairwiseDetailSchema,
    errors: [404],
  },
  async ({ params }) => {
    const comparison = await getPairwiseComparison(getDb(), params.comparisonId);
    if (!comparison) throw notFound(`Pairwise comparison ${params.comparisonId}`);
    return detailOf(comparison);
  },
);

export const resumePairwiseRoute = defineApiRoute(
  {
    method: "post",
    path: "/api/v1/pairwise/{comparisonId}/resume",
    operationId: "resumePairwise",
    summary:
      "Judge what a pairwise comparison has left: after its server stopped, after a failure, or its errors again",
    tag: "Compare",
    action: "run.resume",
    params: comparisonIdParams,
    body: resumePairwiseBodySchema,
    response: pairwiseDetailSchema,
    successStatus: 202,
    errors: [404],
  },
  async ({ params, body }) => {
    const resumed = await resumePairwiseFromRequest(getDb(), params.comparisonId, body.budget);
    if (!resumed) throw notFound(`Pairwise comparison ${params.comparisonId}`);
    return detailOf(resumed);
  },
);
