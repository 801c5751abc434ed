import { z } from "zod";
import { DEFAULT_LIST_CAP, type DeepEvalSettings } from "@/lib/contract/deepEvalSettings";
import type { DetailItem, JudgeVerdict, VerdictDetails } from "@/lib/contract/judgeResult";
import type { JudgeInput } from "../../types";
import { fence } from "../fence";

/**
 * What every DeepEval-family template shares: bounded answer parts (a runaway
 * answer fails validation and gets one repair, instead of filling the store),
 * the fenced renderings of DeepEval's test-case fields, and the verdict shape
 * (score computed from the verdicts, the model's reason, the verdicts as details).
 */
export const LIMITS = {
  /** Claims, statements, sentences, opinions, questions per answer, unless the run sets its own list cap. */
  items: DEFAULT_LIST_CAP,
  /** Statements extracted from one retrieval node. */
  statementsPerNode: 15,
  /** One claim / statement / question as the model restates it. */
  text: 600,
  /** The reason given for one verdict. */
  itemReason: 600,
  /** The answer's overall reason (the result's rationale). */
  reason: 2000,
} as const;

export const itemText = z.string().min(1).max(LIMITS.text);
export const itemReason = z.string().max(LIMITS.itemReason);
export const overallReason = z.string().min(1).max(LIMITS.reason);
export const triVerdict = z.enum(["yes", "no", "idk"]);
export const binaryVerdict = z.enum(["yes", "no"]);

/** One verdict per indexed item (retrieval node, ideal-context item), each exactly once, in order. */
export function indexedItems<K extends string, T extends z.ZodRawShape>(indexKey: K, count: number, shape: T) {
  const index = { [indexKey]: z.number().int().min(1).max(Math.max(count, 1)) } as Record<K, z.ZodNumber>;
  return z
    .array(z.strictObject({ ...index, ...shape }))
    .length(count)
    .refine((items) => items.every((item, i) => (item as Record<string, unknown>)[indexKey] === i + 1), {
      message: `list ${indexKey} 1 to ${count} exactly once, in order`,
    });
}

/** Schemas are built per item count and memoised: the LLM client caches a schema's JSON form by identity. */
export function memoByCount<T>(build: (count: number) => T): (count: number) => T {
  const cache = new Map<number, T>();
  return (count) => {
    let schema = cache.get(count);
    if (!schema) cache.set(count, (schema = build(count)));
    return schema;
  };
}

/** DeepEval's `retrieval_context`: the retrieved chunks, in rank order. */
export function retrievalContextSection(input: JudgeInput): string {
  if (input.retrievedContext.length === 0) return "(no retrieval context)";
  return input.retrievedContext
    .map((chunk, index) => fence("retrieval_node", chunk.content ?? "", { index: index + 1, doc_uri: chunk.docUri }))
    .join("\n\n");
}

/** DeepEval's `context`: the ideal context (the row's expected retrieved context), item by item. */
export function idealContextSection(input: JudgeInput): string {
  return (input.expectedContext ?? [])
    .map((item, index) => fence("context_item", item, { index: index + 1 }))
    .join("\n\n");
}

/** DeepEval's `expected_output`: expected_response, or the expected facts joined one per line. */
export function expectedOutputText(input: JudgeInput): string {
  return input.expectedResponse ?? (input.expectedFacts ?? []).join("\n");
}

export function expectedOutputSection(input: JudgeInput): string {
  return fence("expected_output", expectedOutputText(input));
}

/** DeepEval's `actual_output`. */
export function actualOutputSection(input: JudgeInput): string {
  return fence("actual_output", input.response ?? "");
}

/** Items as the drill-down shows them. */
export function detailItem(text: string, verdict: string, reason: string | null, tags?: string[]): DetailItem {
  return { text, verdict, reason: reason === null || reason === "" ? null : reason, ...(tags ? { tags } : {}) };
}

/** A score metric's verdict: the computed score, the model's reason (none when the run asks for none), the verdicts behind the score. */
export function scoreVerdict(
  score: number,
  reason: string | undefined,
  groups: VerdictDetails["groups"],
  figures: Record<string, number | null>,
  notes: string[] = [],
): JudgeVerdict {
  return {
    rating: null,
    score,
    rationale: reason ?? null,
    errorMessage: null,
    details: { groups, figures, ...(notes.length > 0 ? { notes } : {}) },
  };
}

/**
 * What a DeepEval template's prompt and schema depend on besides the row: the run's list cap and
 * whether the overall reason is asked for (DeepEval's include_reason). Read from the run's score
 * settings, which the judge backend gives every score template as its context.
 */
export type PromptOptions = { listCap: number; includeReason: boolean };
export const DEFAULT_PROMPT_OPTIONS: PromptOptions = { listCap: LIMITS.items, includeReason: true };

export function promptOptionsOf(settings: { deepEval?: DeepEvalSettings } | undefined): PromptOptions {
  const deepEval = settings?.deepEval;
  return deepEval ? { listCap: deepEval.listCap, includeReason: deepEval.includeReason } : DEFAULT_PROMPT_OPTIONS;
}

/** The schema's list bounds in words, so a long output is condensed rather than rejected; none without a cap. */
export function jsonOnly(listCap: number): string {
  if (!Number.isFinite(listCap)) return "Answer with JSON only, in the shape below, each reason one sentence.";
  return `Answer with JSON only, in the shape below: at most ${listCap} items in a list (merge minor ones when there are more), each reason one sentence.`;
}

/** A list schema bounded by the list cap, or unbounded where there is none (DeepEval-exact: Infinity). */
export function upToCap<T extends z.ZodArray<z.ZodType>>(list: T, listCap: number): T {
  return Number.isFinite(listCap) ? (list.max(listCap) as T) : list;
}

/**
 * A list that reached the cap may have had items merged into others (the prompt says to merge past
 * it): the details say so, per list, so a reviewer knows the count is a floor, not a census.
 */
export function listCapNotes(listCap: number, lists: Record<string, number>): string[] {
  return Object.entries(lists)
    .filter(([, length]) => length >= listCap)
    .map(
      ([name, length]) =>
        `The ${name} list reached the cap of ${listCap} items (${length}): the model was told to merge minor ${name} past it, so some may be folded together. A run can raise the cap in its DeepEval settings.`,
    );
}

/** Schemas are built per key (item count, list cap, reason or not) and memoised: the LLM client caches a schema's JSON form by identity. */
export function memoByKey<A extends unknown[], T>(build: (...args: A) => T): (...args: A) => T {
  const cache = new Map<string, T>();
  return (...args) => {
    const key = JSON.stringify(args);
    let schema = cache.get(key);
    if (!schema) cache.set(key, (schema = build(...args)));
    return schema;
  };
}

/** "yes" | "no" | "idk" tallies, as figures. */
export function tally(verdicts: readonly string[], keys: readonly string[]): Record<string, number> {
  return Object.fromEntries(keys.map((key) => [key, verdicts.filter((v) => v === key).length]));
}

/** The bounds in words at the default list cap. */
export const JSON_ONLY = jsonOnly(LIMITS.items);
