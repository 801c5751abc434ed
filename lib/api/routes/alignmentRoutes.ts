import { z } from "zod";
import { alignedMetricName } from "@/lib/alignment/alignedDefinition";
import { storedComparison } from "@/lib/alignment/heldOutComparison";
import { decideAlignment, getAlignment, type StoredAlignment } from "@/lib/db/alignments/judgeAlignments";
import { getDb } from "@/lib/db/client";
import { startAlignmentFromRequest } from "@/lib/server/startAlignmentRequest";
import { ApiError, notFound } from "../apiErrors";
import { alignmentDetailSchema, type AlignmentDetail } from "../alignmentSchemas";
import { defineApiRoute } from "../defineApiRoute";
import { runIdParams } from "./runRoutes";

const alignmentIdParams = z.object({ alignmentId: z.string().min(1).max(200) });

export function alignmentDetail(alignment: StoredAlignment): AlignmentDetail {
  return {
    id: alignment.id,
    datasetId: alignment.datasetId,
    metric: alignment.metric,
    version: alignment.version,
    judgeName: alignment.judgeName,
    alignedMetric: alignedMetricName(alignment.definition),
    judgeModel: alignment.judgeModel,
    status: alignment.status,
    progress: { done: alignment.progress.done, total: alignment.progress.total },
    errorMessage: alignment.errorMessage,
    trainingLabels: alignment.trainingKeys.length,
    heldOutLabels: alignment.heldOutKeys.length,
    examples: alignment.examples.length,
    guidance: alignment.guidance,
    spent: alignment.spent,
    comparison: storedComparison(alignment.comparison),
    definition: { type: alignment.definition.type, judge: { ...alignment.definition.judge } },
    url: `/alignments/${alignment.id}`,
  };
}

/** Align one of a run's judges with its labels: answered at once, measured in the background. */
export const startAlignmentRoute = defineApiRoute(
  {
    method: "post",
    path: "/api/v1/runs/{runId}/alignments",
    operationId: "startAlignment",
    summary: "Align one of a run's judges with the dataset's labels, and measure it on held-out labels",
    description:
      "The labels are split (stratified, 40 % held out, seeded by the version), training labels become worked examples in a new version of the judge (with `guidance`, if given), and that version is measured in the background on the held-out labels only, beside the run's own verdicts. Answers 202 with the alignment, `measuring`; follow it with GET /api/v1/alignments/{alignmentId}. 409 when the judge cannot be aligned (too few labels, the offline judge, an aligned judge).",
    tag: "Alignments",
    action: "judge.align",
    params: runIdParams,
    body: z.object({
      metric: z.string().min(1).max(300).meta({ description: "The judge's full metric name" }),
      guidance: z.string().trim().max(2000).optional(),
    }),
    response: alignmentDetailSchema,
    successStatus: 202,
    errors: [404, 409],
  },
  async ({ params, body, user }) => {
    const started = await startAlignmentFromRequest(getDb(), user, {
      runId: params.runId,
      metric: body.metric,
      guidance: body.guidance ?? null,
    });
    if (started.ok) return alignmentDetail(started.alignment);
    if (started.kind === "not_found") throw notFound(`Run ${params.runId}`);
    throw new ApiError(
      started.kind === "forbidden" ? 403 : 409,
      started.kind === "forbidden" ? "forbidden" : "conflict",
      started.message,
    );
  },
);

export const getAlignmentRoute = defineApiRoute(
  {
    method: "get",
    path: "/api/v1/alignments/{alignmentId}",
    operationId: "getAlignment",
    summary: "An aligned judge: its measurement's progress, then both versions' agreement on the held-out labels",
    tag: "Alignments",
    action: "data.read",
    params: alignmentIdParams,
    response: alignmentDetailSchema,
    errors: [404],
  },
  async ({ params }) => {
    const alignment = await getAlignment(getDb(), params.alignmentId);
    if (!alignment) throw notFound(`Alignment ${params.alignmentId}`);
    return alignmentDetail(alignment);
  },
);

export const decideAlignmentRoute = defineApiRoute(
  {
    method: "post",
    path: "/api/v1/alignments/{alignmentId}/decision",
    operationId: "decideAlignment",
    summary: "Adopt a measured aligned judge (runs may then name it in alignedJudges), or discard it",
    tag: "Alignments",
    action: "judge.align",
    params: alignmentIdParams,
    body: z.object({ decision: z.enum(["adopt", "discard"]) }),
    response: alignmentDetailSchema,
    errors: [404, 409],
  },
  async ({ params, body }) => {
    const db = getDb();
    const alignment = await getAlignment(db, params.alignmentId);
    if (!alignment) throw notFound(`Alignment ${params.alignmentId}`);
    if (!(await decideAlignment(db, alignment.id, body.decision === "adopt" ? "adopted" : "discarded")))
      throw new ApiError(409, "conflict", `The alignment is ${alignment.status}: only a measured one can be adopted.`);
    const decided = await getAlignment(db, alignment.id);
    if (!decided) throw notFound(`Alignment ${params.alignmentId}`);
    return alignmentDetail(decided);
  },
);
