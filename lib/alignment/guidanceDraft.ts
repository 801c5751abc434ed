import { alignmentGuidance, type GuidanceContext } from "@/lib/judges/prompts/alignmentGuidance";
import { renderPrompt } from "@/lib/judges/prompts/promptTemplate";
import type { JudgeInput } from "@/lib/judges/types";
import type { TokenUsage } from "@/lib/contract/judgeResult";
import type { LlmClient } from "@/lib/llm/types";

/** The guidance prompt reads the disagreements from its context, no row of its own. */
const NO_ROW: JudgeInput = {
  messages: [],
  request: "",
  response: null,
  expectedResponse: null,
  expectedFacts: null,
  retrievedContext: [],
};

/**
 * The optional guidance of an alignment, drafted by one call of the judge model from the training
 * disagreements (lib/judges/prompts/alignmentGuidance.ts), for the user to read and edit before it is used.
 * Throws the client's LlmCallError when the endpoint gives no valid answer.
 */
export async function draftGuidance(
  llm: LlmClient,
  model: string,
  context: GuidanceContext,
): Promise<{ guidance: string; usage: TokenUsage; attempts: number }> {
  const { messages } = renderPrompt(alignmentGuidance, NO_ROW, context);
  const answer = await llm.callStructured({
    messages,
    schema: alignmentGuidance.schema(NO_ROW, context),
    schemaName: alignmentGuidance.schemaName,
    model,
  });
  return { guidance: answer.value.guidance, usage: answer.usage, attempts: answer.attempts };
}
