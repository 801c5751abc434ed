import type { AuthUser } from "@/lib/auth/guard";
import type { Db } from "@/lib/db/client";
import { costBudgetProblem } from "@/lib/engine/budgetFields";
import { createRun, RunConfigError } from "@/lib/engine/createRun";
import { judgeOfRequest, runConfigOfRequest, type RunRequest } from "@/lib/engine/runRequest";
import { readLlmConfig } from "@/lib/llm/llmConfig";
import { logServerError, redactServerText } from "./logError";
import { adoptedJudgesFor } from "./adoptedJudges";
import { RunsInProgressRefusal } from "@/lib/engine/runsInProgressRefusal";
import { checkSpendingAllowed, runsInProgressLimitOf, runsInProgressRefusalMessage } from "./runSpendingGuard";

export type StartRunOutcome =
  | { ok: true; runId: string }
  | { ok: false; kind: "invalid" | "refused" | "unavailable" | "server_error"; message: string; errors: string[] };

const NO_MODEL_ENDPOINT = {
  message: "No model endpoint is configured.",
  errors: [
    "Set OPENAI_API_KEY or OPENAI_BASE_URL on the server, or use the offline heuristic judge without generation.",
  ],
};

/**
 * Checks a run request against the server (its model endpoint, prices and spending limits) and stores the run
 * with its whole plan. The caller starts executing it. Never throws: every outcome is worded for people.
 */
export async function startRunFromRequest(db: Db, user: AuthUser, request: RunRequest): Promise<StartRunOutcome> {
  let llm: ReturnType<typeof readLlmConfig>;
  try {
    llm = readLlmConfig();
  } catch (error) {
    return {
      ok: false,
      kind: "unavailable",
      message: "The model endpoint is misconfigured on the server.",
      errors: [redactServerText(error instanceof Error ? error.message : String(error))],
    };
  }
  const needsModel = request.judge === "model" || request.generation !== undefined;
  const judge = judgeOfRequest(request, llm);
  if ((needsModel && !llm) || !judge) return { ok: false, kind: "unavailable", ...NO_MODEL_ENDPOINT };
  const generation = request.generation;
  const costProblem = costBudgetProblem(request.budget, judge, llm?.prices ?? {}, generation?.model ?? null);
  if (costProblem) return { ok: false, kind: "invalid", message: "Check the budget.", errors: [costProblem] };
  const allowed = await checkSpendingAllowed(db, user, {
    budget: request.budget,
    models: { judge, generationModel: generation?.model ?? null },
    typed: true,
    startsRun: true,
  });
  if (!allowed.ok)
    return {
      ok: false,
      kind: "refused",
      message: "This server's spending limits refuse this run.",
      errors: allowed.problems,
    };
  const adopted = await adoptedJudgesFor(db, request.datasetId, request.alignedJudges);
  if (!adopted.ok) return { ok: false, kind: "invalid", message: "The run could not start.", errors: adopted.errors };
  // Counted again where the run is stored, in the same transaction: parallel starts are counted one by one.
  const inProgressLimit = runsInProgressLimitOf(user);
  try {
    const runId = await createRun(db, runConfigOfRequest(request, judge, adopted), {
      createdById: user.local ? null : user.id,
      budget: allowed.budget,
      inProgressLimit,
    });
    return { ok: true, runId };
  } catch (error) {
    if (error instanceof RunsInProgressRefusal)
      return {
        ok: false,
        kind: "refused",
        message: "This server's spending limits refuse this run.",
        errors: [runsInProgressRefusalMessage(inProgressLimit, error.inProgress)],
      };
    if (error instanceof RunConfigError)
      return { ok: false, kind: "invalid", message: "The run could not start.", errors: error.problems };
    const ref = logServerError("start run", error);
    return {
      ok: false,
      kind: "server_error",
      message: `The run could not start because of a server error (ref ${ref}).`,
      errors: [],
    };
  }
}
