import { z } from "zod";
import { conversationSettingsSchema } from "@/lib/contract/conversationSettings";
import { toolCallSettingsSchema } from "@/lib/contract/toolCallSettings";
import { gEvalDefinitionSchema } from "@/lib/contract/gEvalDefinition";
import { alignmentSchema } from "@/lib/contract/alignment";
import type { CustomJudgeDefinition } from "@/lib/contract/judgeDefinitions";
import { contextRelevanceSettingsSchema } from "@/lib/contract/contextRelevanceSettings";
import { deepEvalSettingsSchema } from "@/lib/contract/deepEvalSettings";
import { statisticalSettingsSchema } from "@/lib/contract/statisticalSettings";

/**
 * A run's JSON columns (Run.config, Run.tags) as the run repository reads them:
 * decoded and validated here once, so every reader gets typed values and
 * nothing else parses run JSON. Here in lib/db, not lib/engine, because the
 * repository decodes them and the engine already imports the repository.
 */

/** What is stored in Run.config. */
export const storedRunConfigSchema = z.object({
  metrics: z.array(z.string()),
  chunkMode: z.enum(["batched", "per_chunk"]),
  thresholds: z.record(z.string(), z.number()),
  generationTemperature: z.number().optional(),
  /** Mastra's context_relevance penalties and scale, when the run set any. */
  contextRelevance: contextRelevanceSettingsSchema.optional(),
  /** The statistical scorers' settings (the ROUGE type), when the run set any. */
  statistical: statisticalSettingsSchema.optional(),
  /** DeepEval's options (strict_mode, include_reason, …) that differ from its defaults, when the run set any. */
  deepEval: deepEvalSettingsSchema.optional(),
  /** The tool-call metrics' options that differ from the upstream defaults, when the run set any. */
  toolCalls: toolCallSettingsSchema.optional(),
  /** The conversation judges' settings (MLflow's conversational guidelines), when the run set any. */
  conversation: conversationSettingsSchema.optional(),
  /** The run's custom G-Eval judges, judged as response/llm_judged/g_eval/<name>. */
  gEvalJudges: z.array(gEvalDefinitionSchema).optional(),
  /** How many times each row is judged (and generated, when the run generates); absent for one. */
  trials: z.number().int().min(1).optional(),
  /** Set when failed judgments are re-judged: a second opinion must not come from the cache. */
  refreshCache: z.boolean().optional(),
});
export type StoredRunConfig = z.infer<typeof storedRunConfigSchema>;

const storedTagsSchema = z.array(z.string());

/** The run's number of trials (1 for a run without trials). */
export function trialsOf(config: Pick<StoredRunConfig, "trials">): number {
  return config.trials ?? 1;
}

const storedTrialsSchema = z.object({ trials: z.number().int().min(1).optional() });

/** The number of trials in a stored config, read alone (a reader that needs nothing else of the config). */
export function trialsOfStoredConfig(json: string): number {
  const parsed = storedTrialsSchema.safeParse(JSON.parse(json));
  return parsed.success ? (parsed.data.trials ?? 1) : 1;
}

export function decodeRunConfig(json: string): StoredRunConfig {
  return storedRunConfigSchema.parse(JSON.parse(json));
}

export function decodeRunTags(json: string): string[] {
  return storedTagsSchema.parse(JSON.parse(json));
}

/** A stored custom judge as the judges take it, its adopted alignment (if any) decoded and checked. */
export function decodeCustomJudge(judge: {
  assessmentName: string;
  assessmentType: string;
  instructions: string;
  alignment: string | null;
  basedOn?: string | null;
}): CustomJudgeDefinition {
  return {
    assessmentName: judge.assessmentName,
    assessmentType: judge.assessmentType === "RETRIEVAL" ? "RETRIEVAL" : "ANSWER",
    instructions: judge.instructions,
    ...(judge.alignment === null ? {} : { alignment: alignmentSchema.parse(JSON.parse(judge.alignment)) }),
    ...(judge.basedOn ? { basedOn: judge.basedOn } : {}),
  };
}

/** A run row with its JSON columns decoded. */
export function decodeRun<T extends { config: string; tags: string }>(
  run: T,
): Omit<T, "config" | "tags"> & { config: StoredRunConfig; tags: string[] } {
  return { ...run, config: decodeRunConfig(run.config), tags: decodeRunTags(run.tags) };
}
