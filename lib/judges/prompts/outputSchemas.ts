import { z } from "zod";

/** The answer shapes judges are forced into. Rationale comes first so the model reasons before it rates. */
const rationale = z.string().min(1);
const rating = z.enum(["yes", "no"]);

export const binaryAnswerSchema = z.strictObject({ rationale, rating });
export type BinaryAnswer = z.infer<typeof binaryAnswerSchema>;

/** One verdict per retrieved chunk, each chunk exactly once, in order. */
export function chunkVerdictsSchema(count: number) {
  return z
    .strictObject({ verdicts: z.array(z.strictObject({ chunk_index: z.number().int().min(1).max(count), rationale, rating })).length(count) })
    .refine((answer) => answer.verdicts.every((v, i) => v.chunk_index === i + 1), { message: `verdicts must list chunk_index 1 to ${count} exactly once, in order` });
}
export type ChunkVerdictsAnswer = z.infer<ReturnType<typeof chunkVerdictsSchema>>;

/** One verdict per expected fact, each fact exactly once, in order. */
export function factVerdictsSchema(count: number) {
  return z
    .strictObject({ verdicts: z.array(z.strictObject({ fact_index: z.number().int().min(1).max(count), rationale, rating })).length(count) })
    .refine((answer) => answer.verdicts.every((v, i) => v.fact_index === i + 1), { message: `verdicts must list fact_index 1 to ${count} exactly once, in order` });
}
export type FactVerdictsAnswer = z.infer<ReturnType<typeof factVerdictsSchema>>;
