import type { ScoreMetricSettings } from "../../judgeBackend";
import type { JudgeVerdict } from "@/lib/contract/judgeResult";
import type { JudgeInput } from "../../types";
import {
  heuristicContextualPrecision,
  heuristicContextualRecall,
  heuristicFaithfulness,
  heuristicHallucination,
} from "./claimRules";
import { heuristicToxicity } from "./toxicity";

/**
 * Offline (lexical) approximations of the DeepEval and Mastra score metrics, by full
 * metric name. A metric is available offline only if it is here: where no
 * honest lexical rule exists, it stays out and the run form says why.
 *
 * Left out on purpose: answer_relevancy and contextual_relevancy (whether a
 * statement is relevant to an input is a judgement word overlap would make
 * up; the Agent Evaluation relevance rules already cover the lexical case), bias (the lexicon
 * has only dehumanising phrases; bias lives in generalisations it cannot
 * see), summarization (coverage needs questions a source answers).
 */
export const SCORE_METRIC_HEURISTICS: Partial<
  Record<string, (input: JudgeInput, settings?: ScoreMetricSettings) => JudgeVerdict>
> = {
  "response/llm_judged/faithfulness": heuristicFaithfulness,
  "response/llm_judged/hallucination": heuristicHallucination,
  "retrieval/llm_judged/contextual_precision": heuristicContextualPrecision,
  "retrieval/llm_judged/contextual_recall": heuristicContextualRecall,
  "response/llm_judged/toxicity": heuristicToxicity,
};
