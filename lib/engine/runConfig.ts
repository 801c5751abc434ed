import { z } from "zod";
import { CONVERSATIONAL_GUIDELINES, conversationSettingsSchema } from "@/lib/contract/conversationSettings";
import { toolCallSettingsSchema } from "@/lib/contract/toolCallSettings";
import { customMetricName } from "@/lib/contract/judgeDefinitions";
import { modelNameSchema } from "@/lib/llm/modelName";
import { contextRelevanceSettings, contextRelevanceSettingsSchema } from "@/lib/contract/contextRelevanceSettings";
import { statisticalSettingsSchema } from "@/lib/contract/statisticalSettings";
import { deepEvalSettingsSchema } from "@/lib/contract/deepEvalSettings";
import { gEvalDefinitionSchema } from "@/lib/contract/gEvalDefinition";
import { alignmentSchema } from "@/lib/contract/alignment";
import { gEvalMetricName } from "@/lib/contract/gEvalMetric";
import { ALIGNABLE_BUILT_IN_JUDGES, isAlignableBuiltIn } from "@/lib/alignment/alignableJudges";
import { METRICS } from "@/lib/contract/metricCatalog";
import { MAX_RUN_CONCURRENCY, MAX_TRIALS, MIN_TRIALS, TRIALS_RULE } from "@/lib/contract/runLimits";
import { describeKnownMetrics, METRIC_ALIASES, resolveMetricName } from "@/lib/metrics/metricNames";

/** Names resolve in one place (lib/metrics/metricNames.ts): short names, full names and Agent Evaluation's aliases. */
export { BUILT_IN_METRICS, resolveMetricName } from "@/lib/metrics/metricNames";

// Aliases too: a custom RETRIEVAL judge "chunk_relevance_precision" would be retrieval/llm_judged/chunk_relevance_precision, an alias of chunk_relevance.
const BUILT_IN_SHORT_NAMES = new Set(
  [...METRICS.map((metric) => metric.name), ...Object.keys(METRIC_ALIASES)].map((name) => name.split("/").pop()),
);

export const customJudgeSchema = z
  .object({
    assessmentName: z
      .string()
      .trim()
      .regex(/^[a-z][a-z0-9_]{0,62}$/, "assessment_name: lower-case letters, digits and _, starting with a letter")
      .refine((name) => !BUILT_IN_SHORT_NAMES.has(name), {
        message: "assessment_name: that name belongs to a built-in judge; choose another",
      }),
    assessmentType: z.enum(["ANSWER", "RETRIEVAL"]),
    instructions: z.string().trim().min(10, "instructions: describe what the judge checks (10+ characters)").max(4000),
    /** An adopted alignment (lib/alignment): labelled examples and guidance added to the judge's prompt. */
    alignment: alignmentSchema.optional(),
    /** An aligned built-in judge: the built-in yes/no judge whose prompt it uses (lib/alignment/alignableJudges.ts). */
    basedOn: z
      .string()
      .refine(isAlignableBuiltIn, {
        message: "basedOn: name a built-in yes/no judge, e.g. response/llm_judged/correctness",
      })
      .optional(),
  })
  .refine((judge) => judge.basedOn === undefined || judge.alignment !== undefined, {
    message: "basedOn: only an aligned judge (one with an alignment) is based on a built-in judge",
  })
  .refine((judge) => judge.basedOn === undefined || ALIGNABLE_BUILT_IN_JUDGES[judge.basedOn] === judge.assessmentType, {
    message: "basedOn: a per-chunk built-in judge is aligned as a RETRIEVAL judge, the others as ANSWER judges",
  });

/** Everything that defines a run; validated at every entry (server action, CLI, tests). */
export const runConfigSchema = z
  .object({
    datasetId: z.string().min(1),
    name: z.string().trim().max(200).optional(),
    tags: z.array(z.string().trim().min(1).max(60)).max(20).default([]),
    metrics: z
      .array(z.string())
      .default([])
      .transform((names, ctx) => {
        const resolved = names.map(
          (name) =>
            resolveMetricName(name) ??
            (ctx.addIssue({ code: "custom", message: `unknown metric "${name}"; known: ${describeKnownMetrics()}` }),
            ""),
        );
        return [...new Set(resolved.filter(Boolean))];
      }),
    customJudges: z.array(customJudgeSchema).max(20).default([]),
    /** Custom G-Eval judges: criteria → steps (once per criteria and model; or the author's) → a score per row on the judge's scale. */
    gEvalJudges: z.array(gEvalDefinitionSchema).max(20).default([]),
    judge: z.object({ provider: z.enum(["openai", "azure", "heuristic"]), model: modelNameSchema }),
    concurrency: z.number().int().min(1).max(MAX_RUN_CONCURRENCY).default(8),
    chunkMode: z.enum(["batched", "per_chunk"]).default("batched"),
    /** How many times each row is judged (with generation: generated and judged), each trial asked anew. */
    trials: z
      .number({ error: `trials: ${TRIALS_RULE}` })
      .int(`trials: ${TRIALS_RULE}`)
      .min(MIN_TRIALS, `trials: ${TRIALS_RULE}`)
      .max(MAX_TRIALS, `trials: ${TRIALS_RULE}`)
      .default(1),
    /**
     * Pass marks: for yes/no metrics the minimum yes share, for scores the minimum per-row score.
     * Keys naming a built-in metric (any accepted spelling) are stored under its canonical name;
     * other keys must name one of the run's custom judges (checked below).
     */
    thresholds: z
      // At most 1, except context_relevance's, which may be scaled (checked against its scale below).
      .record(z.string(), z.number().min(0))
      .default({})
      .transform((thresholds) =>
        Object.fromEntries(
          Object.entries(thresholds).map(([name, value]) => [resolveMetricName(name) ?? name.trim(), value]),
        ),
      ),
    /** Mastra's context_relevance penalties and scale for this run; unset ones default. */
    contextRelevance: contextRelevanceSettingsSchema.optional(),
    /** The statistical scorers' settings for this run (which ROUGE type is rouge's score). */
    statistical: statisticalSettingsSchema.optional(),
    /** DeepEval's options for this run: strict_mode, include_reason, penalize_ambiguous_claims, summarization's n and questions, the list cap. */
    deepEval: deepEvalSettingsSchema.optional(),
    /** The tool-call metrics' options: ordering, DeepEval's evaluation_params and exact match. */
    toolCalls: toolCallSettingsSchema.optional(),
    /** The conversation judges' settings: MLflow's conversational guidelines. */
    conversation: conversationSettingsSchema.optional(),
    generation: z
      .object({
        model: modelNameSchema,
        systemPrompt: z.string().max(8000).optional(),
        temperature: z.number().min(0).max(2).default(0),
      })
      .optional(),
  })
  .refine((config) => config.metrics.length + config.customJudges.length + config.gEvalJudges.length > 0, {
    message: "choose at least one metric or custom judge",
  })
  // MLflow's ConversationalGuidelines takes its guidelines as an argument: without them there is nothing to judge.
  .refine((config) => !config.metrics.includes(CONVERSATIONAL_GUIDELINES) || config.conversation?.guidelines, {
    message: "conversational_guidelines needs the run's guidelines (conversation.guidelines; --guideline on the CLI)",
  })
  .refine((config) => new Set(config.gEvalJudges.map((j) => j.name)).size === config.gEvalJudges.length, {
    message: "G-Eval judge names must be unique",
  })
  .refine((config) => new Set(config.customJudges.map((j) => j.assessmentName)).size === config.customJudges.length, {
    message: "custom judge names must be unique",
  })
  .superRefine((config, ctx) => {
    const customNames = new Set([
      ...config.customJudges.flatMap((judge) => [judge.assessmentName, customMetricName(judge)]),
      ...config.gEvalJudges.map(gEvalMetricName),
    ]);
    for (const [name, value] of Object.entries(config.thresholds)) {
      if (!BUILT_IN_NAMES.has(name) && !customNames.has(name)) {
        ctx.addIssue({
          code: "custom",
          message: `threshold "${name}": unknown metric; known: ${describeKnownMetrics()}, or a custom judge of this run`,
        });
      }
      const max = name === CONTEXT_RELEVANCE ? contextRelevanceSettings(config.contextRelevance).scale : 1;
      if (value > max)
        ctx.addIssue({
          code: "custom",
          message: `threshold "${name}": ${value} is above ${max}${name === CONTEXT_RELEVANCE ? " (the context_relevance scale)" : ""}`,
        });
    }
  });

const BUILT_IN_NAMES = new Set(METRICS.map((metric) => metric.name));
const CONTEXT_RELEVANCE = "retrieval/llm_judged/context_relevance";

export type RunConfigInput = z.input<typeof runConfigSchema>;
export type RunConfig = z.output<typeof runConfigSchema>;
