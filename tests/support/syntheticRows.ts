import type { EvalObject } from "./evalFiles";

/** Row `i` (0-based) of the synthetic set: every input a full judge suite needs, `chunks` retrieved chunks and one expected document. */
export function syntheticRow(i: number, chunks: number): EvalObject {
  return {
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
  };
}

/** N synthetic rows (see syntheticRow). */
export function syntheticRows(count: number, chunks: number): EvalObject[] {
  return Array.from({ length: count }, (_, i) => syntheticRow(i, chunks));
}

/**
 * The same N rows as a JSONL file, made as it is read, in pieces of about `pieceBytes`: a million rows
 * (about 600 MB of JSON) never exist in memory at once, so what an upload of them costs is the upload's.
 */
export async function* syntheticJsonl(count: number, chunks: number, pieceBytes = 1 << 20): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  let lines: string[] = [];
  let size = 0;
  for (let i = 0; i < count; i++) {
    const line = `${JSON.stringify(syntheticRow(i, chunks))}\n`;
    lines.push(line);
    size += line.length;
    if (size >= pieceBytes) {
      yield encoder.encode(lines.join(""));
      lines = [];
      size = 0;
    }
  }
  if (lines.length > 0) yield encoder.encode(lines.join(""));
}
