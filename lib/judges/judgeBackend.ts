import type { ContextRelevanceSettings } from "@/lib/contract/contextRelevanceSettings";
import type { DeepEvalSettings } from "@/lib/contract/deepEvalSettings";
import type { ToolCallSettings } from "@/lib/contract/toolCallSettings";
import type { ConversationSettings } from "@/lib/contract/conversationSettings";
import type { Alignment } from "@/lib/contract/alignment";
import type { CustomJudgeDefinition } from "@/lib/contract/judgeDefinitions";
import type { JudgeResult } from "@/lib/contract/judgeResult";
import type { JudgeInput } from "./types";

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
  /** Which of the run's trials this judgment is (1-based; absent: 1). Trials after the first are asked anew (trialJudgeBackend.ts). */
  trial?: number;
};

export type ScoreMetricSettings = {
  contextRelevance?: ContextRelevanceSettings;
  deepEval?: DeepEvalSettings;
  /** The tool-call judges' should_consider_ordering (MLflow's prompt line). */
  toolCalls?: ToolCallSettings;
  /** The conversation judges' settings: MLflow's conversational guidelines. */
  conversation?: ConversationSettings;
};

/** A source of verdicts for LLM-judged metrics: a real model, or the offline heuristics. */
export interface JudgeBackend {
  readonly provider: string;
  readonly model: string;
  judge(request: JudgeRequest): Promise<JudgeResult>;
}
