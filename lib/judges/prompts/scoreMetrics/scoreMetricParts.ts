import { z } from "zod";
import type { VerdictDetails } from "@/lib/contract/judgeResult";
import { FENCE_RULE } from "../fence";
import {
  detailItem,
  itemReason,
  itemText,
  JSON_ONLY,
  jsonOnly,
  LIMITS,
  overallReason,
  tally,
  type PromptOptions,
  upToCap,
} from "./shared";

/**
 * The pieces the DeepEval-family templates repeat: the list of restated items
 * each with a verdict and a reason, its drill-down group, the system prompt's
 * closing rules, and the yes/no/idk tally. Built so the schema and the prompt
 * text come out exactly as each template spelled them before (same key order,
 * same lines), so no template version changes.
 */

/** `[{ <textKey>: "...", verdict, reason }]`, bounded to `max` items. */
export function verdictItems<K extends string, V extends z.ZodType>(
  textKey: K,
  verdict: V,
  max: number = LIMITS.items,
) {
  const text = { [textKey]: itemText } as Record<K, typeof itemText>;
  return upToCap(z.array(z.strictObject({ ...text, verdict, reason: itemReason })), max);
}

type VerdictItem<K extends string> = Record<K, string> & { verdict: string; reason: string };

/** The drill-down group of a verdictItems list, with optional tags per item. */
export function verdictGroup<K extends string>(
  title: string,
  items: readonly VerdictItem<K>[],
  textKey: K,
): VerdictDetails["groups"][number] {
  return { title, items: items.map((item) => detailItem(item[textKey], item.verdict, item.reason)) };
}

/** The system prompt: the template's own lines, then the fence rule, the JSON-only rule and the answer's shape. */
export function scoreMetricSystem(lines: readonly string[], answerShape: string): string {
  return [...lines, FENCE_RULE, JSON_ONLY, answerShape].join("\n");
}

/**
 * A DeepEval template's system prompt under the run's prompt options: its lines, the line asking for the
 * overall reason (or what replaces it when include_reason is off), the fence rule, the list bound, and the
 * answer's shape with or without its closing `"reason"`. At the defaults the text is exactly what
 * scoreMetricSystem gives, so the default prompts (and their cached answers) are unchanged.
 */
export function deepEvalSystem(
  options: PromptOptions,
  parts: { lines: readonly string[]; reasonLine: string; withoutReason?: string; shape: string },
): string {
  const closing = options.includeReason ? [parts.reasonLine] : parts.withoutReason ? [parts.withoutReason] : [];
  return [
    ...parts.lines,
    ...closing,
    FENCE_RULE,
    jsonOnly(options.listCap),
    `${parts.shape}${options.includeReason ? ', "reason": "..."}' : "}"}`,
  ].join("\n");
}

/** The answer's shape plus its overall reason, unless the run asks for none. */
export function withOverallReason<T extends z.ZodRawShape>(
  shape: T,
  options: PromptOptions,
): z.ZodType<z.output<z.ZodObject<T>> & { reason?: string }> {
  // The generic spread loses the shape's type in zod's inference; the two branches are exactly the declared type.
  const schema = options.includeReason ? z.strictObject({ ...shape, reason: overallReason }) : z.strictObject(shape);
  return schema as unknown as z.ZodType<z.output<z.ZodObject<T>> & { reason?: string }>;
}

/** yes / no / idk counts, as figures. */
export function triTally(verdicts: readonly string[]): Record<string, number> {
  return tally(verdicts, ["yes", "no", "idk"]);
}
