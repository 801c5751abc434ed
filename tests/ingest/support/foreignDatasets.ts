/** Datasets as DeepEval and Ragas users have them: their own column names, no Agent Evaluation `request`. */
import type { EvalObject } from "../../support/evalFiles";

/** DeepEval test cases (LLMTestCase / goldens): `context` is the ideal context, `retrieval_context` what was retrieved. */
export const DEEPEVAL_CASES: EvalObject[] = [
  {
    name: "versioning",
    input: "Is versioning on by default?",
    actual_output: "No. Versioning is disabled by default on new buckets.",
    expected_output: "Versioning is disabled by default on new buckets.",
    retrieval_context: [
      "Versioning is disabled by default on new buckets.",
      "Lifecycle rules can expire old object versions.",
    ],
    context: ["Versioning is disabled by default on new buckets.", "Enable versioning in the bucket settings."],
    additional_metadata: { team: "storage" },
  },
  {
    name: "presign",
    input: "How long can a presigned URL last?",
    actual_output: "A presigned URL can last up to 7 days.",
    expected_output: "Up to 7 days.",
    retrieval_context: ["Presigned URLs expire after at most 7 days."],
    context: ["Presigned URLs expire after at most 7 days."],
    additional_metadata: null,
  },
];

export const DEEPEVAL_NOTICE =
  'Read as DeepEval test cases: input → request, actual_output → response, expected_output → expected_response, retrieval_context → retrieved_context, context → expected_retrieved_context, name → request_id. Each passage became a chunk with doc_uri "retrieval_context[i]" and "context[i]" (a context passage with the same text as a retrieved one takes its doc_uri, so document recall counts passages retrieved word for word).';
