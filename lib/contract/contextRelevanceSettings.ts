import { z } from "zod";

/** Mastra's context_relevance settings of a run (lib/metrics/contextRelevanceScore.ts applies them). */
export type ContextRelevanceSettings = {
  unusedHighRelevanceContext: number;
  missingContextPerItem: number;
  maxMissingContextPenalty: number;
  scale: number;
};

/** Mastra's defaults. */
export const DEFAULT_CONTEXT_RELEVANCE_SETTINGS: ContextRelevanceSettings = {
  unusedHighRelevanceContext: 0.1,
  missingContextPerItem: 0.15,
  maxMissingContextPenalty: 0.5,
  scale: 1,
};

/** A run's settings as configured (run config, CLI): any subset, the rest default. */
export const contextRelevanceSettingsSchema = z.strictObject({
  unusedHighRelevanceContext: z.number().min(0).max(1).optional(),
  missingContextPerItem: z.number().min(0).max(1).optional(),
  maxMissingContextPenalty: z.number().min(0).max(1).optional(),
  scale: z.number().positive().max(1000).optional(),
});
export type ContextRelevanceSettingsInput = z.infer<typeof contextRelevanceSettingsSchema>;

export function contextRelevanceSettings(input?: ContextRelevanceSettingsInput | null): ContextRelevanceSettings {
  return { ...DEFAULT_CONTEXT_RELEVANCE_SETTINGS, ...stripUndefined(input ?? {}) };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
