import { z } from "zod";

/**
 * A run's settings of the conversation judges: `guidelines`, MLflow's ConversationalGuidelines(guidelines=…)
 * (a string or a list of them), what every assistant turn must follow. The judge runs only with them.
 */
export const MAX_GUIDELINES = 20;

export const conversationSettingsSchema = z
  .object({
    guidelines: z.array(z.string().trim().min(1).max(2000)).min(1).max(MAX_GUIDELINES).optional().meta({
      description:
        "MLflow's ConversationalGuidelines: the guidelines every assistant turn must follow (conversation/llm_judged/conversational_guidelines)",
    }),
  })
  .strict();
export type ConversationSettings = z.infer<typeof conversationSettingsSchema>;

export const CONVERSATIONAL_GUIDELINES = "conversation/llm_judged/conversational_guidelines";
