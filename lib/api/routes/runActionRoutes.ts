import { getDb } from "@/lib/db/client";
import { budgetFieldsSchema } from "@/lib/engine/budgetFields";
import { cancelRun, getRunStatus } from "@/lib/db/runs/runLifecycle";
import { executeRunInBackground } from "@/lib/server/runScheduler";
import { runRequestSchema, startRunFromRequest } from "@/lib/server/startRunRequest";
import { ApiError, issuesOf, notFound } from "../apiErrors";
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
    const budget = budgetFieldsSchema.safeParse({
      budgetCalls: body.budget.calls ?? null,
      budgetTokens: body.budget.tokens ?? null,
      budgetUsd: body.budget.usd ?? null,
    });
    if (!budget.success) throw new ApiError(400, "invalid_request", "Check the budget.", issuesOf(budget.error));
    const started = await startRunFromRequest(getDb(), user, { ...body, budget: budget.data });
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
