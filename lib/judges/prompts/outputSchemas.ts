import { z } from "zod";
import type { JudgeVerdict } from "@/lib/contract/judgeResult";

/**
 * The answer shapes judges are forced into. Rationale comes first so the model reasons before it rates.
 * A rationale is capped (truncated when parsed; string lengths are not part of OpenAI's strict subset):
 * with one per chunk, an uncapped model could write thousands of tokens per call; the client's
 * max_tokens bounds the whole answer too.
 */
export const MAX_RATIONALE_CHARS = 1200;
/** Capped by truncation, not refusal: a verbose but sound verdict is kept, and the cap bounds what is stored and shown. */
const rationale = z
  .string()
  .min(1)
  .transform((text) => (text.length > MAX_RATIONALE_CHARS ? `${text.slice(0, MAX_RATIONALE_CHARS - 1)}…` : text));
const rating = z.enum(["yes", "no"]);

export const binaryAnswerSchema = z.strictObject({ rationale, rating });
export type BinaryAnswer = z.infer<typeof binaryAnswerSchema>;

/** The verdict of every single yes/no judge: the model's rating and rationale as they are. */
export const binaryVerdict = (answer: BinaryAnswer): JudgeVerdict => ({
  rating: answer.rating,
  score: null,
  rationale: answer.rationale,
  errorMessage: null,
});

/**
 * Schemas are memoised per item count: the client caches each schema's JSON
 * form by identity, and building it anew per call showed up in the engine's CPU profile.
 */
function memoByCount<T>(build: (count: number) => T): (count: number) => T {
  const cache = new Map<number, T>();
  return (count) => {
    let schema = cache.get(count);
    if (!schema) cache.set(count, (schema = build(count)));
    return schema;
  };
}

/** One verdict per retrieved chunk, each chunk exactly once, in order. */
export const chunkVerdictsSchema = memoByCount((count: number) => {
  return z
    .strictObject({
      verdicts: z
        .array(z.strictObject({ chunk_index: z.number().int().min(1).max(count), rationale, rating }))
        .length(count),
    })
    .refine((answer) => answer.verdicts.every((v, i) => v.chunk_index === i + 1), {
      message: `verdicts must list chunk_index 1 to ${count} exactly once, in order`,
    });
});
export type ChunkVerdictsAnswer = z.infer<ReturnType<typeof chunkVerdictsSchema>>;

/** One verdict per expected fact, each fact exactly once, in order. */
export const factVerdictsSchema = memoByCount((count: number) => {
  return z
    .strictObject({
      verdicts: z
        .array(z.strictObject({ fact_index: z.number().int().min(1).max(count), rationale, rating }))
        .length(count),
    })
    .refine((answer) => answer.verdicts.every((v, i) => v.fact_index === i + 1), {
      message: `verdicts must list fact_index 1 to ${count} exactly once, in order`,
    });
});
export type FactVerdictsAnswer = z.infer<ReturnType<typeof factVerdictsSchema>>;
