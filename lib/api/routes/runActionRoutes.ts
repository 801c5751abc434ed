import { getDb } from "@/lib/db/client";
import { z } from "zod";
import { cancelRun, getRunStatus } from "@/lib/db/runs/runLifecycle";
import { resetJudgmentsForRejudge } from "@/lib/db/runs/rejudgeWork";
import { executeRunInBackground } from "@/lib/server/runScheduler";
import { applySpendingLimits, reopenRunFor, SpendingLimitRefusal } from "@/lib/server/runSpendingGuard";
import { runRequestSchema } from "@/lib/engine/runRequest";
import { startRunFromRequest } from "@/lib/server/startRunRequest";
import { ApiError, notFound } from "../apiErrors";
import { runDetailSchema } from "../apiSchemas";
import { defineApiRoute } from "../defineApiRoute";
import { readRunDetail, runIdParams } from "./runRoutes";

/** Starts a run with the run form's whole configuration, checked by the same code as the form's. */
export const startRunRoute = defineApiRoute(
  {
    method: "post",
    path: "/api/v1/runs",
    operationId: "startRun",
    summary: "Start a run on a dataset",
    description:
      "The run form's whole configuration as JSON: metrics, the judge (the offline heuristic or the server's model endpoint), generation, pass marks, custom and G-Eval judges, and a budget. The server's own LLM key is used; it never leaves the server. Answers 201 with the run, which is then judged on the server (or its workers); follow it with GET /api/v1/runs/{runId}.",
    tag: "Runs",
    action: "run.start",
    body: runRequestSchema,
    response: runDetailSchema,
    successStatus: 201,
    errors: [400, 403, 503],
  },
  async ({ body, user }) => {
    const started = await startRunFromRequest(getDb(), user, body);
    if (!started.ok) {
      const status = { invalid: 400, refused: 403, unavailable: 503, server_error: 500 }[started.kind];
      const code = (
        {
          invalid: "invalid_request",
          refused: "forbidden",
          unavailable: "unavailable",
          server_error: "server_error",
        } as const
      )[started.kind];
      throw new ApiError(
        status,
        code,
        started.message,
        started.errors.map((message) => ({ message })),
      );
    }
    executeRunInBackground(started.runId);
    return readRunDetail(started.runId);
  },
);

export const cancelRunRoute = defineApiRoute(
  {
    method: "post",
    path: "/api/v1/runs/{runId}/cancel",
    operationId: "cancelRun",
    summary: "Cancel a pending, running or paused run",
    description:
      "Its judging stops taking new work within a second; what was judged stays. 409 when the run has already ended.",
    tag: "Runs",
    action: "run.cancel",
    params: runIdParams,
    response: runDetailSchema,
    errors: [409],
  },
  async ({ params }) => {
    const db = getDb();
    if (!(await cancelRun(db, params.runId))) {
      const status = await getRunStatus(db, params.runId);
      if (status === null) throw notFound(`Run ${params.runId}`);
      throw new ApiError(
        409,
        "conflict",
        `The run is ${status}; only a pending, running or paused run can be cancelled.`,
      );
    }
    return readRunDetail(params.runId);
  },
);

/** The server's spending limits for a stored run about to spend again, as a 403 when they refuse it. */
async function applyLimitsOrRefuse(user: Parameters<typeof applySpendingLimits>[1], runId: string): Promise<void> {
  try {
    await applySpendingLimits(getDb(), user, runId);
  } catch (error) {
    if (error instanceof SpendingLimitRefusal) throw new ApiError(403, "forbidden", error.message);
    throw error;
  }
}

export const resumeRunRoute = defineApiRoute(
  {
    method: "post",
    path: "/api/v1/runs/{runId}/resume",
    operationId: "resumeRun",
    summary: "Resume a failed or paused run",
    description:
      "Its finished judgments stay; the unfinished ones are judged now. 409 when the run is not failed or paused.",
    tag: "Runs",
    action: "run.resume",
    params: runIdParams,
    response: runDetailSchema,
    errors: [409],
  },
  async ({ params, user }) => {
    const db = getDb();
    const status = await getRunStatus(db, params.runId);
    if (status === null) throw notFound(`Run ${params.runId}`);
    await applyLimitsOrRefuse(user, params.runId);
    const reopened = await reopenRunFor(db, user, params.runId);
    if (!reopened.ok) throw new ApiError(403, "forbidden", reopened.message);
    if (!reopened.reopened)
      throw new ApiError(409, "conflict", `The run is ${status}; only a failed or paused run can be resumed.`);
    executeRunInBackground(params.runId);
    return readRunDetail(params.runId);
  },
);

export const rejudgeRunRoute = defineApiRoute(
  {
    method: "post",
    path: "/api/v1/runs/{runId}/rejudge",
    operationId: "rejudgeRun",
    summary: "Re-judge a finished run's errored (or errored and failed) judgments",
    description:
      "Every other result stays. `secondOpinion` asks the judge again instead of reusing its cached answer for the failed ones. 409 when the run is still being judged, was cancelled, or has nothing to re-judge.",
    tag: "Runs",
    action: "run.rejudge",
    params: runIdParams,
    body: z
      .object({
        which: z.enum(["errored", "errored_or_failed"]).default("errored"),
        secondOpinion: z.boolean().default(false),
      })
      .meta({ id: "RejudgeRequest" }),
    response: runDetailSchema,
    errors: [409],
  },
  async ({ params, body, user }) => {
    const db = getDb();
    const status = await getRunStatus(db, params.runId);
    if (status === null) throw notFound(`Run ${params.runId}`);
    await applyLimitsOrRefuse(user, params.runId);
    const reset = await resetJudgmentsForRejudge(db, params.runId, body.which, { secondOpinion: body.secondOpinion });
    if (reset === 0)
      throw new ApiError(
        409,
        "conflict",
        status === "completed" || status === "failed" || status === "paused"
          ? `The run has no ${body.which === "errored" ? "errored" : "errored or failed"} judgments to re-judge.`
          : `The run is ${status}; only a finished run can be re-judged.`,
      );
    executeRunInBackground(params.runId);
    return readRunDetail(params.runId);
  },
);
