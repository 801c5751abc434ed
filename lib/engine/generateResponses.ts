import type { Db } from "@/lib/db/client";
import { decodeMessages } from "@/lib/db/rowView";
import { saveGeneration } from "@/lib/db/runWrites";
import { LlmCallError } from "@/lib/llm/llmErrors";
import type { ChatTurn, LlmClient } from "@/lib/llm/types";
import { forEachConcurrently, pendingGenerations } from "./pendingWork";

/**
 * Generate, then judge: calls the chosen chat model on every pending row and
 * stores the response with its latency and token usage. The judges then read
 * these responses instead of the dataset's.
 */
export async function generateResponses(
  db: Db,
  run: { id: string; generationModel: string; generationSystemPrompt: string | null; temperature: number; concurrency: number },
  llm: LlmClient,
  shouldStop: () => boolean,
  onDone: () => void,
): Promise<void> {
  await forEachConcurrently(pendingGenerations(db, run.id), run.concurrency, async (row) => {
    const messages: ChatTurn[] = [
      ...(run.generationSystemPrompt ? [{ role: "system" as const, content: run.generationSystemPrompt }] : []),
      ...decodeMessages(row.messages).map((m) => ({ role: toChatRole(m.role), content: m.content })),
    ];
    try {
      const result = await llm.chat({ model: run.generationModel, messages, temperature: run.temperature });
      saveGeneration(db, row.generationId, { response: result.text, errorMessage: null, inputTokenCount: result.usage.inputTokens, outputTokenCount: result.usage.outputTokens, latencySeconds: result.latencyMs / 1000 });
    } catch (error) {
      if (!(error instanceof LlmCallError)) throw error;
      saveGeneration(db, row.generationId, { response: null, errorMessage: error.message, inputTokenCount: null, outputTokenCount: null, latencySeconds: null });
    }
    onDone();
  }, shouldStop);
}

function toChatRole(role: string): ChatTurn["role"] {
  return role === "system" || role === "assistant" ? role : "user";
}
