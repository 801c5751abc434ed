import type { MetricDefinition } from "./metricDefinition";

/**
 * The score metrics of DeepEval's family, the statistical scorers it surveys, and
 * Mastra's context relevance. Each result carries score, threshold, success, reason and
 * error_message; success is score ≥ threshold, or ≤ where lower is better.
 *
 * Inputs map from the Agent Evaluation input schema's columns as DeepEval names them: input = the request (the
 * conversation available), actual_output = response, expected_output = expected_response
 * (or the expected facts joined), retrieval_context = the retrieved chunks in rank order,
 * context = the expected retrieved context's contents (the ideal context).
 *
 * G-Eval (`g_eval`) is not here: its judges are defined per run, named by the user (criteria,
 * evaluation parameters, threshold), like the custom ANSWER/RETRIEVAL judges; their names and
 * requirements come from the run's definitions, not from this table.
 */
const higher = { direction: "higher", defaultThreshold: 0.5 } as const;
const lower = { direction: "lower", defaultThreshold: 0.5 } as const;

export const SCORE_METRICS: MetricDefinition[] = [
  {
    name: "response/llm_judged/faithfulness",
    label: "Faithfulness",
    question: "What share of the response's claims does the retrieval context support (or not contradict)?",
    kind: "llm_judged",
    family: "deepeval",
    requires: ["response", "retrieved_context_content"],
    score: higher,
    callsPerRow: 1,
  },
  {
    name: "response/llm_judged/answer_relevancy",
    label: "Answer relevancy",
    question: "What share of the response's statements is relevant to the input?",
    kind: "llm_judged",
    family: "deepeval",
    requires: ["response"],
    score: higher,
    callsPerRow: 1,
  },
  {
    name: "retrieval/llm_judged/contextual_precision",
    label: "Contextual precision",
    question: "Are the retrieved nodes that help produce the expected output ranked above the others?",
    kind: "llm_judged",
    family: "deepeval",
    requires: ["retrieved_context_content", "expected_response_or_facts"],
    score: higher,
    callsPerRow: 1,
  },
  {
    name: "retrieval/llm_judged/contextual_recall",
    label: "Contextual recall",
    question: "What share of the expected output's sentences can be attributed to the retrieved nodes?",
    kind: "llm_judged",
    family: "deepeval",
    requires: ["retrieved_context_content", "expected_response_or_facts"],
    score: higher,
    callsPerRow: 1,
  },
  {
    name: "retrieval/llm_judged/contextual_relevancy",
    label: "Contextual relevancy",
    question: "What share of the statements in the retrieval context is relevant to the input?",
    kind: "llm_judged",
    family: "deepeval",
    requires: ["retrieved_context_content"],
    score: higher,
    callsPerRow: 1,
  },
  {
    name: "response/llm_judged/hallucination",
    label: "Hallucination",
    question: "What share of the ideal context does the response contradict? (lower is better)",
    kind: "llm_judged",
    family: "deepeval",
    requires: ["response", "expected_context_content"],
    score: lower,
    callsPerRow: 1,
  },
  {
    name: "response/llm_judged/toxicity",
    label: "Toxicity",
    question: "What share of the response's opinions is toxic? (lower is better)",
    kind: "llm_judged",
    family: "deepeval",
    requires: ["response"],
    score: lower,
    callsPerRow: 1,
  },
  {
    name: "response/llm_judged/bias",
    label: "Bias",
    question:
      "What share of the response's opinions is biased (gender, racial, political, geographical)? (lower is better)",
    kind: "llm_judged",
    family: "deepeval",
    requires: ["response"],
    score: lower,
    callsPerRow: 1,
  },
  {
    name: "response/llm_judged/summarization",
    label: "Summarization",
    question:
      "Is the response a faithful summary of the input that covers its key points? (min of alignment, coverage)",
    kind: "llm_judged",
    family: "deepeval",
    requires: ["response"],
    score: higher,
    callsPerRow: 2,
  },
  {
    name: "retrieval/llm_judged/context_relevance",
    label: "Context relevance (Mastra)",
    question: "How relevant was each retrieved piece, was it used, and what was missing?",
    kind: "llm_judged",
    family: "mastra",
    requires: ["response", "retrieved_context_content"],
    score: higher,
    callsPerRow: 1,
  },
  {
    name: "response/statistical/bleu",
    label: "BLEU",
    question: "BLEU-4 (smoothed) of the response against the expected response",
    kind: "statistical",
    family: "statistical",
    requires: ["response", "expected_response"],
    score: higher,
    callsPerRow: 0,
  },
  {
    name: "response/statistical/rouge",
    label: "ROUGE",
    question: "ROUGE-L F1 of the response against the expected response (ROUGE-1/2 in the details)",
    kind: "statistical",
    family: "statistical",
    requires: ["response", "expected_response"],
    score: higher,
    callsPerRow: 0,
  },
  {
    name: "response/statistical/meteor",
    label: "METEOR",
    question: "METEOR (exact and stem matches, order penalty) of the response against the expected response",
    kind: "statistical",
    family: "statistical",
    requires: ["response", "expected_response"],
    score: higher,
    callsPerRow: 0,
  },
  {
    name: "response/statistical/levenshtein",
    label: "Levenshtein similarity",
    question: "1 − edit distance / length of the longer text, response against expected response",
    kind: "statistical",
    family: "statistical",
    requires: ["response", "expected_response"],
    score: higher,
    callsPerRow: 0,
  },
];
