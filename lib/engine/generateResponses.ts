import type { Db } from "@/lib/db/client";
import { decodeMessages } from "@/lib/db/rowView";
import { saveGeneration } from "@/lib/db/runWrites";
import { retryWhileBusy } from "@/lib/db/storeRetry";
import { LlmCallError } from "@/lib/llm/llmErrors";
import type { LlmClient } from "@/lib/llm/types";
import { renderAnswerPrompt } from "./generation/answerTemplates";
import { chunksOf } from "./judgeInputFromRow";
import { forEachConcurrently, pendingGenerations } from "./pendingWork";

/**
 * Generate, then judge: calls the chosen chat model on every pending row and
 * stores the response with its latency and token usage. The model sees the
 * row's retrieved context through the versioned RAG-answer template (so the
 * retrieval judges judge the response against what the model saw), or the
 * messages alone when the row has none; each generation records the template
 * and the hash of the exact prompt, even when the call fails.
 */
export async function generateResponses(
  db: Db,
  run: {
    id: string;
    generationModel: string;
    generationSystemPrompt: string | null;
    temperature: number;
    concurrency: number;
  },
  llm: LlmClient,
  shouldStop: () => boolean,
  onDone: () => void,
): Promise<void> {
  await forEachConcurrently(
    pendingGenerations(db, run.id),
    run.concurrency,
    async (row) => {
      const prompt = renderAnswerPrompt({
        systemPrompt: run.generationSystemPrompt,
        messages: decodeMessages(row.messages),
        retrievedContext: chunksOf(row, "retrieved"),
      });
      const provenance = {
        templateVersion: prompt.template.version,
        templateHash: prompt.template.hash,
        promptHash: prompt.promptHash,
      };
      try {
        const result = await llm.chat({
          model: run.generationModel,
          messages: prompt.messages,
          temperature: run.temperature,
        });
        await retryWhileBusy(() =>
          saveGeneration(db, row.generationId, {
            response: result.text,
            errorMessage: null,
            inputTokenCount: result.usage.inputTokens,
            outputTokenCount: result.usage.outputTokens,
            latencySeconds: result.latencyMs / 1000,
            ...provenance,
          }),
        );
      } catch (error) {
        if (!(error instanceof LlmCallError)) throw error;
        await retryWhileBusy(() =>
          saveGeneration(db, row.generationId, {
            response: null,
            errorMessage: error.message,
            inputTokenCount: null,
            outputTokenCount: null,
            latencySeconds: null,
            ...provenance,
          }),
        );
      }
      onDone();
    },
    shouldStop,
  );
}
