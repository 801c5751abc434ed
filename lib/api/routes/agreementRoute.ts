import { getDb } from "@/lib/db/client";
import { getRunAgreement } from "@/lib/db/labels/agreementQueries";
import { getRun } from "@/lib/db/runs/runQueries";
import { notFound } from "../apiErrors";
import { runAgreementSchema } from "../agreementSchemas";
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
      "Only labels given on the response the run judged count (`otherResponse` says how many were left out). Score judges compare pass/fail at the run's pass mark, and add Spearman's ρ and the mean absolute difference on the raw scores.",
    tag: "Runs",
    action: "data.read",
    params: runIdParams,
    response: runAgreementSchema,
    errors: [404],
  },
  async ({ params }) => {
    const db = getDb();
    const run = await getRun(db, params.runId);
    if (!run) throw notFound(`Run ${params.runId}`);
    return { judges: await getRunAgreement(db, { id: run.id, datasetId: run.datasetId }) };
  },
);
