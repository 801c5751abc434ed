import { z } from "zod";
import { statisticalSettingsSchema, type StatisticalSettings } from "@/lib/contract/statisticalSettings";
import { deepEvalSettingsSchema, type DeepEvalSettingsInput } from "@/lib/contract/deepEvalSettings";
import type { AuthUser } from "@/lib/auth/guard";
import type { Db } from "@/lib/db/client";
import type { RunBudget } from "@/lib/db/runs/runBudget";
import { costBudgetProblem } from "@/lib/engine/budgetFields";
import { createRun, RunConfigError } from "@/lib/engine/createRun";
import type { RunConfigInput } from "@/lib/engine/runConfig";
import { gEvalDefinitionSchema } from "@/lib/contract/gEvalDefinition";
import { alignmentSchema } from "@/lib/contract/alignment";
import { HEURISTIC_MODEL } from "@/lib/judges/heuristic";
import { readLlmConfig } from "@/lib/llm/llmConfig";
import { logServerError, redactServerText } from "./logError";
import { adoptedJudgesFor } from "./adoptedJudges";
import { RunsInProgressRefusal } from "@/lib/engine/runsInProgressRefusal";
import { checkSpendingAllowed, runsInProgressLimitOf, runsInProgressRefusalMessage } from "./runSpendingGuard";

/**
 * A run as a person or a program asks for one: the run form's fields, structured. The server action reads
 * the form into this; the API takes it as JSON. The engine's own schema (runConfig.ts) then checks the
 * metrics, judges and pass marks, as it does for the CLI.
 */
export type RunRequest = {
  datasetId: string;
  name?: string;
  tags: string[];
  metrics: string[];
  /** The offline heuristic judge, or the configured model endpoint (with `judgeModel`, or its default model). */
  judge: "heuristic" | "model";
  judgeModel?: string;
  concurrency: number;
  chunkMode: "batched" | "per_chunk";
  generation?: { model: string; systemPrompt?: string };
  thresholds: Record<string, number>;
  contextRelevance?: Record<string, number>;
  statistical?: StatisticalSettings;
  /** DeepEval's options (strict_mode, include_reason, …); unset ones default. */
  deepEval?: DeepEvalSettingsInput;
  customJudges: RunConfigInput["customJudges"];
  gEvalJudges: RunConfigInput["gEvalJudges"];
  /** Adopted aligned judges of the dataset, by alignment id: run with their stored definitions. */
  alignedJudges?: string[];
  budget: RunBudget;
};

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
  if (needsModel && !llm) return { ok: false, kind: "unavailable", ...NO_MODEL_ENDPOINT };
  let judge: RunConfigInput["judge"];
  if (request.judge === "heuristic") judge = { provider: "heuristic", model: HEURISTIC_MODEL };
  else if (llm) judge = { provider: llm.endpoint.kind, model: request.judgeModel || llm.model };
  else return { ok: false, kind: "unavailable", ...NO_MODEL_ENDPOINT };
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
  const adopted = await adoptedJudgesFor(db, request.datasetId, request.alignedJudges ?? []);
  if (!adopted.ok) return { ok: false, kind: "invalid", message: "The run could not start.", errors: adopted.errors };
  // Counted again where the run is stored, in the same transaction: parallel starts are counted one by one.
  const inProgressLimit = runsInProgressLimitOf(user);
  try {
    const runId = await createRun(
      db,
      {
        datasetId: request.datasetId,
        name: request.name,
        tags: request.tags,
        metrics: request.metrics,
        customJudges: [...(request.customJudges ?? []), ...adopted.customJudges],
        gEvalJudges: [...(request.gEvalJudges ?? []), ...adopted.gEvalJudges],
        thresholds: request.thresholds,
        ...(request.contextRelevance && Object.keys(request.contextRelevance).length > 0
          ? { contextRelevance: request.contextRelevance }
          : {}),
        ...(request.statistical && Object.values(request.statistical).some(Boolean)
          ? { statistical: request.statistical }
          : {}),
        ...(request.deepEval ? { deepEval: request.deepEval } : {}),
        judge,
        concurrency: request.concurrency,
        chunkMode: request.chunkMode,
        ...(generation ? { generation } : {}),
      },
      { createdById: user.local ? null : user.id, budget: allowed.budget, inProgressLimit },
    );
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

/** A run request's JSON form (the API's body); the engine checks the rest. */
export const runRequestSchema = z
  .object({
    datasetId: z.string().min(1).max(200),
    name: z.string().trim().max(200).optional(),
    tags: z
      .array(z.string().trim().min(1).max(60))
      .max(20)
      .default([])
      .meta({ description: "Free text; `key=value` tags (git_sha=…, branch=…, model=…) can be filtered on" }),
    metrics: z
      .array(z.string().min(1).max(200))
      .max(100)
      .default([])
      .meta({ description: "Built-in metric names, short or full (`correctness`, `response/llm_judged/correctness`)" }),
    judge: z.enum(["heuristic", "model"]).default("model"),
    judgeModel: z.string().trim().max(200).optional(),
    concurrency: z.number().int().min(1).max(64).default(8),
    chunkMode: z.enum(["batched", "per_chunk"]).default("batched"),
    generation: z
      .object({ model: z.string().trim().min(1).max(200), systemPrompt: z.string().max(8000).optional() })
      .optional()
      .meta({ description: "Generate the responses with this model instead of judging the dataset's" }),
    thresholds: z.record(z.string().min(1), z.number().min(0)).default({}),
    contextRelevance: z.record(z.string().min(1), z.number().min(0)).optional(),
    statistical: statisticalSettingsSchema.optional(),
    deepEval: deepEvalSettingsSchema
      .optional()
      .meta({ description: "DeepEval's options by their DeepEval meaning: strict_mode, include_reason, …" }),
    customJudges: z
      .array(
        z.object({
          assessmentName: z.string(),
          assessmentType: z.enum(["ANSWER", "RETRIEVAL"]),
          instructions: z.string(),
          alignment: alignmentSchema
            .optional()
            .meta({ description: "An aligned judge's labelled examples and guidance (as --align writes them)" }),
          basedOn: z
            .string()
            .max(200)
            .optional()
            .meta({ description: "An aligned built-in judge: the built-in judge whose prompt it uses" }),
        }),
      )
      .default([]),
    gEvalJudges: z.array(gEvalDefinitionSchema).default([]),
    alignedJudges: z.array(z.string().min(1).max(100)).max(20).default([]).meta({
      description:
        "Adopted aligned judges of the dataset, by alignment id (the id in its page's address, /alignments/{id})",
    }),
    budget: z
      .object({
        calls: z.number().int().positive().nullable().optional(),
        tokens: z.number().int().positive().nullable().optional(),
        usd: z.number().positive().nullable().optional(),
      })
      .default({}),
  })
  .meta({ id: "RunRequest" });
