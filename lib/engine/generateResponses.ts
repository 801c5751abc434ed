import type { Db } from "@/lib/db/client";
import { decodeMessages } from "@/lib/db/datasets/rowView";
import { saveGeneration, type SavedGeneration } from "@/lib/db/work/runWrites";
import { LlmCallError } from "@/lib/llm/llmErrors";
import type { TokenUsage } from "@/lib/contract/judgeResult";
import type { LlmClient } from "@/lib/llm/types";
import type { BudgetGate } from "./budgetGate";
import { renderAnswerPrompt } from "./generation/answerTemplates";
import { chunksOf } from "./judgeInputFromRow";
import { trialSeed } from "@/lib/judges/trialJudgeBackend";
import { claimBatchSize, claimedGenerations, forEachConcurrently } from "./pendingWork";

/**
 * Generate, then judge: calls the chosen chat model on every pending row and
 * stores the response with its latency and token usage. The model sees the
 * row's retrieved context through the versioned RAG-answer template (so the
 * retrieval judges judge the response against what the model saw), or the
 * messages alone when the row has none; each generation records the template
 * and the hash of the exact prompt, even when the call fails.
 *
 * Each call is checked against the run's budget first and counts in it as a
 * judge call does (attempts, tokens, cost at ASSAY_LLM_PRICES); once a limit
 * is reached the remaining rows stay pending, and the caller pauses the run.
 * Rows are claimed (claims.ts), so several workers generate for one run
 * together; a row claimed here and not generated goes back to the pool when
 * the caller releases its claims.
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
  deps: {
    llm: LlmClient;
    gate: BudgetGate;
    costOf: (model: string, usage: TokenUsage | null) => number | null;
    workerId: string;
  },
  shouldStop: () => boolean,
  onDone: () => void,
): Promise<void> {
  const { llm, gate } = deps;
  await forEachConcurrently(
    claimedGenerations(db, run.id, deps.workerId, claimBatchSize(run.concurrency)),
    run.concurrency,
    async (row) => {
      const reservation = await gate.reserve(1);
      if (reservation === null) return; // the row stays pending for the resume
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
      let stored: SavedGeneration;
      try {
        const result = await llm.chat({
          model: run.generationModel,
          messages: prompt.messages,
          temperature: run.temperature,
          // Each trial is a fresh response: with its own seed, a deterministic server answers it anew.
          ...(trialSeed(row.trial) === undefined ? {} : { seed: trialSeed(row.trial) }),
        });
        stored = {
          response: result.text,
          errorMessage: null,
          inputTokenCount: result.usage.inputTokens,
          outputTokenCount: result.usage.outputTokens,
          latencySeconds: result.latencyMs / 1000,
          attempts: result.attempts,
          costUsd: deps.costOf(run.generationModel, result.usage),
          ...provenance,
        };
      } catch (error) {
        if (!(error instanceof LlmCallError)) throw error;
        stored = {
          response: null,
          errorMessage: error.message,
          inputTokenCount: null,
          outputTokenCount: null,
          latencySeconds: null,
          // A failed call's attempts and billed tokens are spent all the same.
          attempts: error.attempts,
          costUsd: deps.costOf(run.generationModel, error.usage),
          ...provenance,
        };
      } finally {
        reservation.release();
      }
      gate.book({
        calls: stored.attempts,
        tokens: (stored.inputTokenCount ?? 0) + (stored.outputTokenCount ?? 0),
        usd: stored.costUsd ?? 0,
      });
      const written = await saveGeneration(db, { id: row.generationId, runId: run.id }, stored, {
        workerId: deps.workerId,
        reservedCalls: reservation.heldInStore,
      });
      if (written) onDone();
      else await reservation.releaseStoreHold();
    },
    () => shouldStop() || gate.reached !== null,
  );
}
