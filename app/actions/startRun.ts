"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { checkRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { costBudgetProblem, readBudgetFields } from "@/lib/engine/budgetFields";
import { createRun, RunConfigError } from "@/lib/engine/createRun";
import type { RunConfigInput } from "@/lib/engine/runConfig";
import { gEvalDefinitionSchema } from "@/lib/judges/geval/definition";
import { HEURISTIC_MODEL } from "@/lib/judges/heuristic";
import { readLlmConfig } from "@/lib/llm/llmConfig";
import { logServerError, redactServerText } from "@/lib/server/logError";
import { executeRunInBackground } from "@/lib/server/runScheduler";
import { checkSpendingAllowed } from "@/lib/server/runSpendingGuard";

export type StartRunState = { message: string | null; errors: string[] };

const formSchema = z.object({
  datasetId: z.string().min(1),
  name: z.string().trim().max(200).optional(),
  tags: z.string().max(1000).optional(),
  metrics: z.array(z.string()).default([]),
  judge: z.enum(["heuristic", "model"]),
  judgeModel: z.string().trim().max(200).optional(),
  concurrency: z.coerce.number().int().min(1).max(64),
  chunkMode: z.enum(["batched", "per_chunk"]),
  generate: z.literal("on").optional(),
  generationModel: z.string().trim().max(200).optional(),
  systemPrompt: z.string().max(8000).optional(),
  customJudges: z.string().max(100_000).optional(),
  gEvalJudges: z.string().max(100_000).optional(),
});

const NO_MODEL_ENDPOINT: StartRunState = {
  message: "No model endpoint is configured.",
  errors: [
    "Set OPENAI_API_KEY or OPENAI_BASE_URL on the server, or use the offline heuristic judge without generation.",
  ],
};

const customJudgesSchema = z.array(
  z.object({ assessmentName: z.string(), assessmentType: z.enum(["ANSWER", "RETRIEVAL"]), instructions: z.string() }),
);

/** Per-metric pass marks (`threshold:<metric>`) and context_relevance settings (`contextRelevance:<key>`) from ScoreSettings. */
const scoreFieldsSchema = z.object({
  thresholds: z.record(z.string().min(1), z.coerce.number().min(0)),
  contextRelevance: z.record(z.string().min(1), z.coerce.number().min(0)),
});

function scoreFields(formData: FormData, prefix: string): Record<string, string> {
  return Object.fromEntries(
    [...formData.entries()]
      .filter(([key, value]) => key.startsWith(prefix) && String(value).trim() !== "")
      .map(([key, value]) => [key.slice(prefix.length), String(value)]),
  );
}

/** Starts a run from the run form: validates, persists the plan, starts executing it, and opens the run page. */
export async function startRun(_previous: StartRunState, formData: FormData): Promise<StartRunState> {
  const access = await checkRole("run.start");
  if (!access.ok) return { message: access.message, errors: [] };
  const parsed = formSchema.safeParse({
    ...Object.fromEntries([...formData.entries()].filter(([key]) => key !== "metrics")),
    metrics: formData.getAll("metrics").map(String),
  });
  if (!parsed.success)
    return {
      message: "Check the form.",
      errors: parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`),
    };
  const form = parsed.data;
  const scores = scoreFieldsSchema.safeParse({
    thresholds: scoreFields(formData, "threshold:"),
    contextRelevance: scoreFields(formData, "contextRelevance:"),
  });
  if (!scores.success)
    return {
      message: "Check the pass marks.",
      errors: scores.error.issues.map((issue) => `${issue.path.join(" ")}: ${issue.message}`),
    };
  const budget = readBudgetFields(formData);
  if (!budget.success)
    return { message: "Check the budget.", errors: budget.error.issues.map((issue) => issue.message) };
  const custom = customJudgesSchema.safeParse(parseJson(form.customJudges || "[]"));
  if (!custom.success) return { message: "Check the custom judges.", errors: ["custom judges could not be read"] };
  const gEval = z.array(gEvalDefinitionSchema).safeParse(parseJson(form.gEvalJudges || "[]"));
  if (!gEval.success)
    return {
      message: "Check the G-Eval judges.",
      // Numbered from 1 as the form shows them: "G-Eval judge 2, name: …".
      errors: gEval.error.issues.map((issue) => {
        const [index, ...field] = issue.path;
        return typeof index === "number"
          ? `G-Eval judge ${index + 1}${field.length > 0 ? `, ${field.join(".")}` : ""}: ${issue.message}`
          : `G-Eval judges: ${issue.message}`;
      }),
    };

  let llm: ReturnType<typeof readLlmConfig>;
  try {
    llm = readLlmConfig();
  } catch (error) {
    return {
      message: "The model endpoint is misconfigured on the server.",
      errors: [redactServerText(error instanceof Error ? error.message : String(error))],
    };
  }
  const needsModel = form.judge === "model" || form.generate === "on";
  if (needsModel && !llm) return NO_MODEL_ENDPOINT;
  if (form.generate === "on" && !form.generationModel)
    return { message: "Check the form.", errors: ["Generation needs a model name."] };
  let judge: RunConfigInput["judge"];
  if (form.judge === "heuristic") judge = { provider: "heuristic", model: HEURISTIC_MODEL };
  else if (llm) judge = { provider: llm.endpoint.kind, model: form.judgeModel || llm.model };
  else return NO_MODEL_ENDPOINT;
  const generation =
    form.generate === "on" && form.generationModel
      ? { model: form.generationModel, systemPrompt: form.systemPrompt || undefined }
      : undefined;
  const costProblem = costBudgetProblem(budget.data, judge, llm?.prices ?? {}, generation?.model ?? null);
  if (costProblem) return { message: "Check the budget.", errors: [costProblem] };
  const allowed = await checkSpendingAllowed(getDb(), access.user, {
    budget: budget.data,
    models: { judge, generationModel: generation?.model ?? null },
    typed: true,
    startsRun: true,
  });
  if (!allowed.ok) return { message: "This server's spending limits refuse this run.", errors: allowed.problems };

  let runId: string;
  try {
    runId = await createRun(
      getDb(),
      {
        datasetId: form.datasetId,
        name: form.name,
        tags: (form.tags ?? "")
          .split(",")
          .map((tag) => tag.trim())
          .filter(Boolean),
        metrics: form.metrics,
        customJudges: custom.data,
        gEvalJudges: gEval.data,
        thresholds: scores.data.thresholds,
        ...(Object.keys(scores.data.contextRelevance).length > 0
          ? { contextRelevance: scores.data.contextRelevance }
          : {}),
        judge,
        concurrency: form.concurrency,
        chunkMode: form.chunkMode,
        ...(generation ? { generation } : {}),
      },
      { createdById: access.user.local ? null : access.user.id, budget: allowed.budget },
    );
  } catch (error) {
    if (error instanceof RunConfigError)
      return { message: "The run could not start.", errors: error.message.split("; ") };
    const ref = logServerError("start run", error);
    return { message: `The run could not start because of a server error (ref ${ref}).`, errors: [] };
  }
  executeRunInBackground(runId);
  redirect(`/runs/${runId}`);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
