import { z } from "zod";

/** A labelled row an aligned judge shows as a worked example (lib/alignment). */
export type AlignmentExample = { key: string; label: "yes" | "no"; text: string; reason: string | null };
/** What an aligned version adds to a judge's prompt: worked examples, and the guidance the user accepted. */
export type Alignment = { examples: readonly AlignmentExample[]; guidance: string | null };

/** An alignment as a run config and the store carry it: checked wherever it enters. */
export const alignmentSchema = z.strictObject({
  examples: z
    .array(
      z.strictObject({
        key: z.string().min(1).max(200),
        label: z.enum(["yes", "no"]),
        text: z.string().max(20_000),
        reason: z.string().max(2000).nullable(),
      }),
    )
    .max(40),
  guidance: z.string().trim().max(2000).nullable(),
});
