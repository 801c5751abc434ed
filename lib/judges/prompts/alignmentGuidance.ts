import { z } from "zod";
import { fence, FENCE_RULE } from "./fence";
import type { PromptCall } from "./promptTemplate";
import type { AlignmentExample } from "@/lib/contract/alignment";

/**
 * The one optional call of an alignment: the judge model reads the training rows where the judge and
 * the people disagreed and writes a short addition to the judge's instructions, a general rule and
 * never a note about those rows. The user reads and edits it before it is used (alignedTemplate puts
 * the accepted text in the system prompt). Versioned data like every prompt: the rows are fenced.
 */
export type GuidanceContext = {
  /** The judge's own instructions, as its prompt states them. */
  instructions: string;
  disagreements: readonly (AlignmentExample & { verdict: "yes" | "no" })[];
};

export const guidanceAnswerSchema = z.strictObject({ guidance: z.string().trim().min(1).max(800) });

export const alignmentGuidance: PromptCall<z.infer<typeof guidanceAnswerSchema>, GuidanceContext> = {
  version: "alignment.guidance/v1",
  schemaName: "alignment_guidance",
  schema: () => guidanceAnswerSchema,
  system: (context) =>
    [
      "You improve the instructions of an AI judge that answers yes or no.",
      `Its instructions:\n${context.instructions}`,
      "Below are rows where the judge's answer differed from the answer a person gave. Write an addition to the instructions, at most four sentences, stating the general rule the people apply that the judge missed.",
      "Write a rule, not a description of these rows: name no row and quote none of its content.",
      FENCE_RULE,
      'Answer with JSON only: {"guidance": "..."}',
    ].join("\n\n"),
  render: (_input, context) =>
    context.disagreements
      .map((row, i) =>
        fence(
          "disagreement",
          `${row.text}\n\nThe judge answered: ${row.verdict}\nThe person answered: ${row.label}${row.reason ? `\nTheir reason: ${row.reason}` : ""}`,
          { index: i + 1 },
        ),
      )
      .join("\n\n"),
};
