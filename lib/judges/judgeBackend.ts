import type { ContextRelevanceSettings } from "@/lib/metrics/contextRelevanceScore";
import type { DeepEvalSettings } from "@/lib/metrics/deepEvalSettings";
import type { Alignment } from "./prompts/alignedTemplate";
import type { CustomJudgeDefinition, JudgeInput, JudgeResult } from "./types";

export type ChunkJudgingMode = "batched" | "per_chunk";

export type JudgeRequest = {
  /** The Agent Evaluation metric name, e.g. response/llm_judged/correctness or retrieval/llm_judged/{assessment_name}. */
  metric: string;
  input: JudgeInput;
  custom?: CustomJudgeDefinition;
  chunkMode: ChunkJudgingMode;
  /** Per-run settings of the score metrics; a score template receives them as its context (the score, and for DeepEval's the prompt's list cap and reason). */
  settings?: ScoreMetricSettings;
  /** An aligned version of the judge: its labelled examples and guidance added to the metric's prompt (lib/alignment). */
  alignment?: Alignment;
  /**
   * Asked before calls the judgment was not planned with (a malformed batched answer's per-chunk fallback),
   * after `made` calls: false when the run's budget has no room for `more`. Absent: no budget to ask.
   */
  allowMoreCalls?: (made: number, more: number) => boolean;
};

export type ScoreMetricSettings = { contextRelevance?: ContextRelevanceSettings; deepEval?: DeepEvalSettings };

/** A source of verdicts for LLM-judged metrics: a real model, or the offline heuristics. */
export interface JudgeBackend {
  readonly provider: string;
  readonly model: string;
  judge(request: JudgeRequest): Promise<JudgeResult>;
}

/** Where validated judge answers are kept, keyed by (model, prompt version, rendered prompt). Errors are never stored. */
export interface JudgeCache {
  get(key: string): Promise<{ response: string; inputTokens: number | null; outputTokens: number | null } | null>;
  /** replace: overwrite an existing answer (a deliberate second opinion must become the cached one). */
  put(
    entry: {
      key: string;
      model: string;
      promptVersion: string;
      response: string;
      inputTokens: number;
      outputTokens: number;
    },
    options?: { replace?: boolean },
  ): Promise<void>;
}
