import type { InputColumn } from "@/lib/contract/normalizedRow";

/**
 * The dataset formats of other evaluation tools, as data: for each, which of
 * its columns gives which Agent Evaluation input schema column and how the
 * cell is read. foreignColumns.ts decides which one a file is and maps it.
 */

/**
 * How a cell is read:
 * "value": taken as is.
 * "chunks": an array of strings becomes chunks `{content, doc_uri}`.
 * "request": a string, a chat message list, or a dict whose question key is taken (see foreignValues.ts).
 * "response": a string, or a dict's answer key, or else the JSON text.
 * "expected": a string becomes expected_response, a list of strings expected_facts.
 * "expectations": MLflow 3's dict of expected_response, expected_facts, expected_retrieved_context.
 */
export type Kind = "value" | "chunks" | "request" | "response" | "expected" | "expectations";

/**
 * Several sources for one target: "either" means both present is ambiguous (no mapping); "firstWins" keeps the first.
 * `weak`: a column many formats share (an id), so it never tells formats apart.
 */
export type Rule = {
  target: InputColumn;
  sources: readonly string[];
  kind: Kind;
  onSeveral: "either" | "firstWins";
  weak?: true;
};

export type FormatName = "DeepEval" | "Ragas" | "MLflow" | "Braintrust" | "OpenAI evals" | "Langfuse";

export type ForeignFormat = { name: FormatName; label: string; rules: readonly Rule[] };

// Retrieved context comes before the expected one: an ideal chunk reuses the doc_uri of a retrieved chunk with the same text.
// The order is also the tie-break when a file's columns read the same way in several formats (a lone `input`: DeepEval).
export const FORMATS: readonly ForeignFormat[] = [
  {
    name: "DeepEval",
    label: "DeepEval test cases",
    rules: [
      { target: "request", sources: ["input"], kind: "request", onSeveral: "either" },
      { target: "response", sources: ["actual_output"], kind: "value", onSeveral: "either" },
      { target: "expected_response", sources: ["expected_output"], kind: "value", onSeveral: "either" },
      { target: "retrieved_context", sources: ["retrieval_context"], kind: "chunks", onSeveral: "either" },
      { target: "expected_retrieved_context", sources: ["context"], kind: "chunks", onSeveral: "either" },
      { target: "request_id", sources: ["id", "name"], kind: "value", onSeveral: "firstWins", weak: true },
    ],
  },
  {
    name: "Ragas",
    label: "Ragas samples",
    rules: [
      { target: "request", sources: ["question", "user_input"], kind: "value", onSeveral: "either" },
      { target: "response", sources: ["answer", "response"], kind: "value", onSeveral: "either" },
      { target: "retrieved_context", sources: ["contexts", "retrieved_contexts"], kind: "chunks", onSeveral: "either" },
      { target: "expected_response", sources: ["ground_truth", "reference"], kind: "value", onSeveral: "either" },
      // The schema allows one of expected_response and expected_facts: ground_truths is read only without ground_truth/reference.
      { target: "expected_facts", sources: ["ground_truths"], kind: "value", onSeveral: "either" },
      { target: "expected_retrieved_context", sources: ["reference_contexts"], kind: "chunks", onSeveral: "either" },
    ],
  },
  {
    // mlflow.genai.evaluate's data: `inputs` (the predict function's keyword arguments), `outputs`, `expectations`.
    name: "MLflow",
    label: "an MLflow 3 evaluation dataset",
    rules: [
      { target: "request", sources: ["inputs"], kind: "request", onSeveral: "either" },
      { target: "response", sources: ["outputs"], kind: "response", onSeveral: "either" },
      // One column, several targets: the dict's keys say which (foreignValues.ts).
      { target: "expected_response", sources: ["expectations"], kind: "expectations", onSeveral: "either" },
    ],
  },
  {
    // Braintrust dataset and experiment records; `metadata` is left to the unknown-column warning.
    name: "Braintrust",
    label: "Braintrust records",
    rules: [
      { target: "request", sources: ["input"], kind: "request", onSeveral: "either" },
      { target: "response", sources: ["output"], kind: "response", onSeveral: "either" },
      { target: "expected_response", sources: ["expected"], kind: "expected", onSeveral: "either" },
      { target: "request_id", sources: ["id"], kind: "value", onSeveral: "firstWins", weak: true },
    ],
  },
  {
    // OpenAI evals samples: `input` (chat messages) with `ideal`, or the legacy `prompt`/`completion`.
    name: "OpenAI evals",
    label: "OpenAI evals samples",
    rules: [
      { target: "request", sources: ["input", "prompt"], kind: "request", onSeveral: "either" },
      { target: "response", sources: ["completion"], kind: "response", onSeveral: "either" },
      { target: "expected_response", sources: ["ideal"], kind: "expected", onSeveral: "either" },
    ],
  },
  {
    name: "Langfuse",
    label: "Langfuse dataset items",
    rules: [
      { target: "request", sources: ["input"], kind: "request", onSeveral: "either" },
      { target: "expected_response", sources: ["expectedOutput"], kind: "expected", onSeveral: "either" },
      { target: "request_id", sources: ["id"], kind: "value", onSeveral: "firstWins", weak: true },
    ],
  },
];

/** Every format's name as the file-level error lists them, after the schema's own. */
export const ACCEPTED_FORMATS =
  "Agent Evaluation's input schema (request, response, …), DeepEval test cases, Ragas samples, MLflow 3 evaluation datasets, Braintrust records, OpenAI evals samples, Langfuse dataset items";
