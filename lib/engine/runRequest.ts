import { z } from "zod";
import { conversationSettingsSchema } from "@/lib/contract/conversationSettings";
import { toolCallSettingsSchema } from "@/lib/contract/toolCallSettings";
import { alignmentSchema } from "@/lib/contract/alignment";
import { deepEvalSettingsSchema } from "@/lib/contract/deepEvalSettings";
import { gEvalDefinitionSchema } from "@/lib/contract/gEvalDefinition";
import { MAX_RUN_CONCURRENCY, MAX_TRIALS, MIN_TRIALS, TRIALS_RULE } from "@/lib/contract/runLimits";
import { statisticalSettingsSchema } from "@/lib/contract/statisticalSettings";
import { HEURISTIC_MODEL } from "@/lib/contract/offlineJudge";
import type { LlmConfig } from "@/lib/llm/llmConfig";
import { runBudgetSchema } from "./budgetFields";
import type { RunConfigInput } from "./runConfig";

/**
 * A run as a person or a program asks for one, in one shape whoever asks: the run form's fields read into it
 * (lib/server/runForm/runRequestFromForm.ts), `POST /api/v1/runs` takes it as its JSON body, and the CLI
 * builds it from its arguments (lib/cli/runRequestOfArgs.ts), sending it to a server with --server or turning
 * it into the run's config here. What only the engine can check (metric names, judges, pass marks) is checked
 * by runConfig.ts, for every caller alike.
 */
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
    judge: z.enum(["heuristic", "model"]).default("model").meta({
      description: "The offline heuristic judge, or the server's model endpoint (its default model, or judgeModel)",
    }),
    judgeModel: z.string().trim().max(200).optional(),
    concurrency: z
      .number()
      .int()
      .min(1)
      .max(MAX_RUN_CONCURRENCY)
      .default(8)
      .meta({ description: "LLM calls in flight at most; the endpoint's own limit (ASSAY_LLM_MAX_IN_FLIGHT) caps it" }),
    chunkMode: z.enum(["batched", "per_chunk"]).default("batched"),
    trials: z
      .number({ error: TRIALS_RULE })
      .int(TRIALS_RULE)
      .min(MIN_TRIALS, TRIALS_RULE)
      .max(MAX_TRIALS, TRIALS_RULE)
      .default(1)
      .meta({
        description:
          "Judge (and, with generation, generate) each row this many times, each trial asked anew; compare tests each row's mean over its trials",
      }),
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
    conversation: conversationSettingsSchema.optional(),
    toolCalls: toolCallSettingsSchema.optional().meta({
      description:
        "The tool-call metrics against expected_tool_calls: considerOrdering, DeepEval's evaluationParams and exactMatch",
    }),
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
    budget: runBudgetSchema
      .default({ calls: null, tokens: null, usd: null })
      .meta({ description: "Pause the run once it has made this many calls, used this many tokens or cost this much" }),
  })
  .meta({ id: "RunRequest" });

/** A run request as sent (defaults may be left out). */
export type RunRequestInput = z.input<typeof runRequestSchema>;
/** A run request as checked, defaults filled in. */
export type RunRequest = z.output<typeof runRequestSchema>;

/**
 * The judge a request asks for on an endpoint: the offline heuristic judge, or the endpoint's model (the one
 * named, or its default); null when it needs a model and there is no endpoint.
 */
export function judgeOfRequest(
  request: Pick<RunRequest, "judge" | "judgeModel">,
  llm: LlmConfig | null,
): RunConfigInput["judge"] | null {
  if (request.judge === "heuristic") return { provider: "heuristic", model: HEURISTIC_MODEL };
  return llm ? { provider: llm.endpoint.kind, model: request.judgeModel || llm.model } : null;
}

/** Adopted aligned judges of the dataset, as the judges they run as (lib/server/adoptedJudges.ts). */
export type AdoptedJudges = Pick<RunConfigInput, "customJudges" | "gEvalJudges">;

/** The run's config from a checked request, its judge resolved and its adopted aligned judges added. */
export function runConfigOfRequest(
  request: RunRequest,
  judge: RunConfigInput["judge"],
  adopted: AdoptedJudges = {},
): RunConfigInput {
  return {
    datasetId: request.datasetId,
    name: request.name,
    tags: request.tags,
    metrics: request.metrics,
    customJudges: [...request.customJudges, ...(adopted.customJudges ?? [])],
    gEvalJudges: [...request.gEvalJudges, ...(adopted.gEvalJudges ?? [])],
    thresholds: request.thresholds,
    ...(request.contextRelevance && Object.keys(request.contextRelevance).length > 0
      ? { contextRelevance: request.contextRelevance }
      : {}),
    ...(request.statistical && Object.values(request.statistical).some(Boolean)
      ? { statistical: request.statistical }
      : {}),
    ...(request.deepEval ? { deepEval: request.deepEval } : {}),
    ...(request.toolCalls ? { toolCalls: request.toolCalls } : {}),
    ...(request.conversation?.guidelines ? { conversation: request.conversation } : {}),
    judge,
    concurrency: request.concurrency,
    chunkMode: request.chunkMode,
    trials: request.trials,
    ...(request.generation ? { generation: request.generation } : {}),
  };
}
