import { z } from "zod";
import type { VerdictDetails } from "../../types";
import { FENCE_RULE } from "../fence";
import { detailItem, itemReason, itemText, JSON_ONLY, LIMITS, tally } from "./shared";

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
  return z.array(z.strictObject({ ...text, verdict, reason: itemReason })).max(max);
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

/** yes / no / idk counts, as figures. */
export function triTally(verdicts: readonly string[]): Record<string, number> {
  return tally(verdicts, ["yes", "no", "idk"]);
}
