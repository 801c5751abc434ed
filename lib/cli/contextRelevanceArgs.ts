import { contextRelevanceSettingsSchema } from "@/lib/contract/contextRelevanceSettings";

const KEYS = Object.keys(contextRelevanceSettingsSchema.shape);

/** One `--context-relevance KEY=VALUE`: the key and number, or the message to show. */
export function parseContextRelevanceOption(entry: string): { key: string; value: number } | string {
  const match = /^\s*([A-Za-z]+)\s*=\s*([0-9.]+)\s*$/.exec(entry);
  if (!match || !KEYS.includes(match[1]))
    return `--context-relevance ${entry}: expected KEY=VALUE with KEY one of ${KEYS.join(", ")}`;
  const value = Number(match[2]);
  const parsed = contextRelevanceSettingsSchema.safeParse({ [match[1]]: value });
  if (!parsed.success)
    return `--context-relevance ${entry}: ${match[1] === "scale" ? "scale must be above 0 and at most 1000" : "penalties are from 0 to 1"}`;
  return { key: match[1], value };
}
