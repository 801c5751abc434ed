import type { EvalObject } from "./evalFiles";

/** N rows with every input a full judge suite needs, each with `chunks` retrieved chunks and one expected document. */
export function syntheticRows(count: number, chunks: number): EvalObject[] {
  return Array.from({ length: count }, (_, i) => ({
    request_id: `row-${i + 1}`,
    request:
      i % 3 === 0
        ? `How do I configure setting ${i}?`
        : { messages: [{ role: "user", content: `What does option ${i} do?` }] },
    response: `Option ${i} controls the retention of objects in the bucket.`,
    ...(i % 2 === 0
      ? { expected_response: `Option ${i} controls retention.` }
      : { expected_facts: [`option ${i} controls retention`, "it applies per bucket"] }),
    retrieved_context: Array.from({ length: chunks }, (_, c) => ({
      content: `Chunk ${c} for row ${i}: retention settings apply per bucket.`,
      doc_uri: `doc-${(i + c) % 50}`,
    })),
    expected_retrieved_context: [{ doc_uri: `doc-${i % 50}` }],
  }));
}
