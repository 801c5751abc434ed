import type { CustomJudgeDefinition } from "@/lib/contract/judgeDefinitions";
import type { JudgeVerdict } from "@/lib/contract/judgeResult";
import type { JudgeInput } from "../types";
import { findMetric } from "@/lib/contract/metricCatalog";
import { errorVerdict } from "../types";
import { heuristicCustomAnswer, heuristicCustomRetrieval } from "./customJudges";
import { heuristicRelevanceToQuery } from "./relevanceJudge";
import { heuristicGroundedness } from "./groundednessJudge";
import { heuristicCorrectness, heuristicSafety } from "./responseJudges";
import { heuristicChunkRelevance, heuristicContextSufficiency } from "./retrievalJudges";
import type { ScoreMetricSettings } from "../judgeBackend";
import { SCORE_METRIC_HEURISTICS } from "./scoreMetrics";

/**
 * The built-in offline judge: deterministic lexical approximations of Agent Evaluation's
 * LLM judges, used when no model is configured. Pure functions: no I/O, no
 * randomness, no clock, so the same row always gets the same verdict.
 */
export { HEURISTIC_MODEL } from "@/lib/contract/offlineJudge";
/** Bump whenever a rule or threshold (claims.ts RULES, the lexicon, the tokeniser) changes: stored verdicts name it. */
export const HEURISTIC_PROMPT_VERSION = "heuristic-v1.3";

export { heuristicGroundedness } from "./groundednessJudge";
export { heuristicCorrectness, heuristicSafety } from "./responseJudges";
export { heuristicRelevanceToQuery } from "./relevanceJudge";
export { heuristicChunkRelevance, heuristicContextSufficiency } from "./retrievalJudges";
export { heuristicCustomAnswer, heuristicCustomRetrieval } from "./customJudges";

const hasResponse = (input: JudgeInput) => input.response !== null && input.response.trim() !== "";
const hasChunkText = (input: JudgeInput) =>
  input.retrievedContext.some((c) => c.content !== null && c.content.trim() !== "");
const hasGroundTruth = (input: JudgeInput) =>
  (input.expectedFacts !== null && input.expectedFacts.length > 0) ||
  (input.expectedResponse !== null && input.expectedResponse.trim() !== "");

/** The engine skips rows that lack a judge's inputs; these errors only guard direct calls. */
function missing(input: JudgeInput, needs: ("response" | "chunks" | "chunkText" | "groundTruth")[]): string | null {
  const absent: string[] = [];
  if (needs.includes("response") && !hasResponse(input)) absent.push("response");
  if (needs.includes("chunks") && input.retrievedContext.length === 0) absent.push("retrieved_context");
  if (needs.includes("chunkText") && !hasChunkText(input)) absent.push("retrieved_context[].content");
  if (needs.includes("groundTruth") && !hasGroundTruth(input)) absent.push("expected_facts or expected_response");
  return absent.length === 0 ? null : `Cannot judge without ${absent.join(" and ")}.`;
}

export function judgeHeuristically(
  metric: string,
  input: JudgeInput,
  custom?: CustomJudgeDefinition,
  settings?: ScoreMetricSettings,
): JudgeVerdict {
  const chunkCount = input.retrievedContext.length;
  if (custom) {
    // Custom judges: response/llm_judged/{name} (ANSWER) or retrieval/llm_judged/{name} (RETRIEVAL).
    const expected = `${custom.assessmentType === "ANSWER" ? "response" : "retrieval"}/llm_judged/${custom.assessmentName}`;
    if (metric !== expected)
      return errorVerdict(
        `Custom judge "${custom.assessmentName}" (${custom.assessmentType}) reports as ${expected}, not ${metric}.`,
      );
    if (custom.assessmentType === "ANSWER") {
      const problem = missing(input, ["response"]);
      return problem ? errorVerdict(problem) : heuristicCustomAnswer(custom, input);
    }
    const problem = missing(input, ["chunks"]);
    return problem ? errorVerdict(problem) : heuristicCustomRetrieval(custom, input);
  }
  switch (metric) {
    case "response/llm_judged/correctness": {
      const problem = missing(input, ["response", "groundTruth"]);
      return problem ? errorVerdict(problem) : heuristicCorrectness(input);
    }
    case "response/llm_judged/relevance_to_query": {
      const problem = missing(input, ["response"]);
      return problem ? errorVerdict(problem) : heuristicRelevanceToQuery(input);
    }
    case "response/llm_judged/groundedness": {
      const problem = missing(input, ["response", "chunkText"]);
      return problem ? errorVerdict(problem) : heuristicGroundedness(input);
    }
    case "response/llm_judged/safety": {
      const problem = missing(input, ["response"]);
      return problem ? errorVerdict(problem) : heuristicSafety(input);
    }
    case "retrieval/llm_judged/chunk_relevance": {
      const problem = missing(input, ["chunks"]);
      return problem ? errorVerdict(problem, chunkCount) : heuristicChunkRelevance(input);
    }
    case "retrieval/llm_judged/context_sufficiency": {
      const problem = missing(input, ["chunkText", "groundTruth"]);
      return problem ? errorVerdict(problem) : heuristicContextSufficiency(input);
    }
    default: {
      const rule = SCORE_METRIC_HEURISTICS[metric];
      if (rule) return rule(input, settings);
      return errorVerdict(
        offlineUnavailableReason(metric) ?? `The offline heuristic judge has no rule for metric "${metric}".`,
      );
    }
  }
}

/**
 * Why the offline judge cannot judge a score metric (DeepEval, Mastra) or an agent's LLM judge, or null when it can:
 * a metric is available offline only with an honest lexical rule in SCORE_METRIC_HEURISTICS.
 * The run form and the run config show this instead of a made-up score.
 */
export function offlineUnavailableReason(metric: string): string | null {
  const definition = findMetric(metric);
  if (definition?.kind !== "llm_judged") return null;
  // An agent's tool choices, arguments, task and steps: no lexical rule says whether they were right.
  const agentJudge = definition.family === "agent" || definition.family === "conversation";
  if (!definition.score && !agentJudge) return null;
  if (SCORE_METRIC_HEURISTICS[metric]) return null;
  const name = metric.split("/").pop() ?? metric;
  return `${name} needs an LLM judge: the offline heuristic judge has no honest lexical rule for it`;
}
