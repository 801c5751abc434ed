import { z } from "zod";
import { runRequestSchema, type RunRequest } from "@/lib/engine/runRequest";
import { gEvalFromText } from "@/lib/judges/geval/definitionText";
import { readBudgetFields } from "./budgetFormFields";
import { readDeepEvalFields } from "./deepEvalFormFields";
import { readConversationFields, readToolCallFields } from "./agentFormFields";

/**
 * The run form's plain fields (components/runs/form/RunForm.tsx), read from text into values: bounds and
 * allowed values are runRequestSchema's alone, checked once the request is whole, so the form and the API
 * refuse the same things in the same words. Only the judge editors' JSON is bounded here, before it is parsed.
 */
const formSchema = z.object({
  datasetId: z.string(),
  name: z.string().optional(),
  tags: z.string().optional(),
  metrics: z.array(z.string()).default([]),
  /** Adopted aligned judges, by alignment id (the form's checkboxes). */
  alignedJudges: z.array(z.string()).default([]),
  judge: z.string(),
  judgeModel: z.string().optional(),
  concurrency: z.coerce.number(),
  /** Absent from a form without the field: one trial. */
  trials: z.coerce.number().optional(),
  chunkMode: z.string(),
  generate: z.literal("on").optional(),
  generationModel: z.string().trim().optional(),
  systemPrompt: z.string().optional(),
  customJudges: z.string().max(100_000).optional(),
  gEvalJudges: z.string().max(100_000).optional(),
  /** ScoreSettings' ROUGE and BLEU types, sent when rouge or bleu is chosen. */
  rougeType: z.string().optional(),
  bleuType: z.string().optional(),
});

/** GEvalJudgesEditor's drafts, as typed; gEvalFromText reads them. */
const gEvalDraftsSchema = z.array(
  z.object({
    name: z.string(),
    criteria: z.string(),
    steps: z.string(),
    evaluationParams: z.array(z.string()),
    scale: z.string(),
    rubric: z.string(),
    threshold: z.number(),
  }),
);

/** CustomJudgesEditor's judges, as the request takes them. */
const customJudgesSchema = runRequestSchema.shape.customJudges;

/** Per-metric pass marks (`threshold:<metric>`) and context_relevance settings (`contextRelevance:<key>`) from ScoreSettings. */
const scoreFieldsSchema = z.object({
  thresholds: z.record(z.string().min(1), z.coerce.number().min(0)),
  contextRelevance: z.record(z.string().min(1), z.coerce.number().min(0)),
});

export type RunFormReading = { ok: true; request: RunRequest } | { ok: false; message: string; errors: string[] };

/**
 * The run form's fields as a run request: the one place that reads them. What the form sends as text (numbers,
 * comma-separated tags, the judge editors' JSON, the prefixed score and DeepEval fields) becomes the request's
 * JSON shape, which is then checked by the same schema as `POST /api/v1/runs`'s body. Problems are worded for
 * the form, each group with its heading.
 */
export function runRequestFromForm(formData: FormData): RunFormReading {
  const parsed = formSchema.safeParse({
    ...Object.fromEntries([...formData.entries()].filter(([key]) => key !== "metrics" && key !== "alignedJudges")),
    metrics: formData.getAll("metrics").map(String),
    alignedJudges: formData.getAll("alignedJudges").map(String),
  });
  if (!parsed.success)
    return {
      ok: false,
      message: "Check the form.",
      errors: parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`),
    };
  const form = parsed.data;
  const scores = scoreFieldsSchema.safeParse({
    thresholds: prefixedFields(formData, "threshold:"),
    contextRelevance: prefixedFields(formData, "contextRelevance:"),
  });
  if (!scores.success)
    return {
      ok: false,
      message: "Check the pass marks.",
      errors: scores.error.issues.map((issue) => `${issue.path.join(" ")}: ${issue.message}`),
    };
  const budget = readBudgetFields(formData);
  if (!budget.success)
    return { ok: false, message: "Check the budget.", errors: budget.error.issues.map((issue) => issue.message) };
  const custom = customJudgesSchema.safeParse(parseJson(form.customJudges || "[]"));
  if (!custom.success)
    return { ok: false, message: "Check the custom judges.", errors: ["custom judges could not be read"] };
  const drafts = gEvalDraftsSchema.safeParse(parseJson(form.gEvalJudges || "[]"));
  if (!drafts.success)
    return { ok: false, message: "Check the G-Eval judges.", errors: ["G-Eval judges could not be read"] };
  const gEval = drafts.data.map(gEvalFromText);
  const gEvalProblems = gEval.flatMap((judge, index) =>
    // Numbered from 1 as the form shows them: "G-Eval judge 2, rubric: …".
    "problems" in judge ? judge.problems.map((problem) => `G-Eval judge ${index + 1}, ${problem}`) : [],
  );
  if (gEvalProblems.length > 0) return { ok: false, message: "Check the G-Eval judges.", errors: gEvalProblems };
  const deepEval = readDeepEvalFields(formData);
  if (!deepEval.ok) return { ok: false, message: "Check the DeepEval options.", errors: deepEval.errors };
  const toolCalls = readToolCallFields(formData);
  const conversation = readConversationFields(formData);
  if (form.generate === "on" && !form.generationModel)
    return { ok: false, message: "Check the form.", errors: ["Generation needs a model name."] };

  // Text still unchecked (the judge, the chunk mode, the ROUGE type): runRequestSchema decides.
  const request = {
    datasetId: form.datasetId,
    name: form.name,
    tags: (form.tags ?? "")
      .split(",")
      .map((tag) => tag.trim())
      .filter(Boolean),
    metrics: form.metrics,
    judge: form.judge,
    judgeModel: form.judgeModel,
    concurrency: form.concurrency,
    ...(form.trials === undefined ? {} : { trials: form.trials }),
    chunkMode: form.chunkMode,
    generation:
      form.generate === "on" && form.generationModel
        ? { model: form.generationModel, systemPrompt: form.systemPrompt || undefined }
        : undefined,
    thresholds: scores.data.thresholds,
    contextRelevance: scores.data.contextRelevance,
    statistical: { rougeType: form.rougeType, bleuType: form.bleuType },
    ...(deepEval.settings ? { deepEval: deepEval.settings } : {}),
    ...(toolCalls ? { toolCalls } : {}),
    ...(conversation ? { conversation } : {}),
    customJudges: custom.data,
    gEvalJudges: gEval.flatMap((judge) => ("definition" in judge ? [judge.definition] : [])),
    alignedJudges: form.alignedJudges,
    budget: budget.data,
  };
  const checked = runRequestSchema.safeParse(request);
  if (!checked.success)
    return {
      ok: false,
      message: "Check the form.",
      errors: checked.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`),
    };
  return { ok: true, request: checked.data };
}

/** The form's fields named `<prefix><key>`, by key, the empty ones left out. */
function prefixedFields(formData: FormData, prefix: string): Record<string, string> {
  return Object.fromEntries(
    [...formData.entries()]
      .filter(([key, value]) => key.startsWith(prefix) && String(value).trim() !== "")
      .map(([key, value]) => [key.slice(prefix.length), String(value)]),
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
