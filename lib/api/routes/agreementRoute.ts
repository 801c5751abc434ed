import { getDb } from "@/lib/db/client";
import { getRun } from "@/lib/db/runs/runQueries";
import { getCachedRunAgreement } from "@/lib/labels/agreementCache";
import { notFound } from "../apiErrors";
import { agreementQuerySchema, runAgreementSchema } from "../agreementSchemas";
import { defineApiRoute } from "../defineApiRoute";
import { runIdParams } from "./runRoutes";

/** A run's agreement with the dataset's human labels, per judge: what the run page's panel and the CLI show. */
export const runAgreementRoute = defineApiRoute(
  {
    method: "get",
    path: "/api/v1/runs/{runId}/agreement",
    operationId: "getRunAgreement",
    summary: "A run's agreement with the human labels, per judge: Cohen's κ with its interval, the confusion matrix",
    description:
      "Only labels given on the response the run judged count (`otherResponse` says how many were left out). Score judges compare pass/fail at the run's pass mark, and add Spearman's ρ and the mean absolute difference on the raw scores. Where several people labelled a key, the judge is measured against the gold label (adjudicated, else the majority, else the median of scores; ties have none), and `people` gives, per metric more than one person labelled, Krippendorff's α between them with two bootstrap intervals, Fleiss' κ, the labeller × labeller table, the judge's α as one more labeller and the alternative annotator test (Calderon, Reichart & Dror 2025; `epsilon` sets its allowance, 0.15 by default).",
    tag: "Runs",
    action: "data.read",
    params: runIdParams,
    query: agreementQuerySchema,
    response: runAgreementSchema,
    errors: [404],
  },
  async ({ params, query }) => {
    const db = getDb();
    const run = await getRun(db, params.runId);
    if (!run) throw notFound(`Run ${params.runId}`);
    return getCachedRunAgreement(db, run, { epsilon: query.epsilon });
  },
);
