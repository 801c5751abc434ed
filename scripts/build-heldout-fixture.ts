/**
 * Builds the offline judge's held-out evaluation set from HaluEval QA records
 * (tests/fixtures/heldout/halueval-qa/source.jsonl, copied verbatim) into the
 * Agent Evaluation input format plus a labels file. Deterministic: same source, same files.
 * Usage: npx tsx scripts/build-heldout-fixture.ts
 * The rules (variants, labels, split) are documented in the fixture's README.md.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

const sourceRecordSchema = z.object({
  knowledge: z.string(),
  question: z.string(),
  right_answer: z.string(),
  hallucinated_answer: z.string(),
});
type Label = "yes" | "no" | null;
type Variant = "right" | "hallucinated" | "other_passage" | "other_answer";

const dir = path.resolve(import.meta.dirname, "../tests/fixtures/heldout/halueval-qa");
const records = fs
  .readFileSync(path.join(dir, "source.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim())
  .map((line, i) => ({ line: i + 1, record: sourceRecordSchema.parse(JSON.parse(line)) }));

/** The split is fixed by the question text alone: first hex digit of its SHA-256, 0–9 held-out, a–f dev. */
const splitOf = (question: string): "heldout" | "dev" =>
  /^[0-9]/.test(createHash("sha256").update(question.trim()).digest("hex")) ? "heldout" : "dev";

const pad = (n: number) => String(n).padStart(4, "0");
const docUri = (line: number) => `halueval-qa://qa_data.json/${pad(line)}/knowledge`;

for (const split of ["dev", "heldout"] as const) {
  const members = records.filter((r) => splitOf(r.record.question) === split);
  const rows: string[] = [];
  const labels: string[] = [];
  members.forEach(({ line, record }, k) => {
    // The partner for the two constructed variants is the next record of the same split (cyclic), so no text crosses splits.
    const partner = members[(k + 1) % members.length];
    const question = record.question.trim();
    const variants: [Variant, string, { line: number; knowledge: string }, Record<string, Label>][] = [
      [
        "right",
        record.right_answer,
        { line, knowledge: record.knowledge },
        { correctness: "yes", groundedness: "yes", relevance_to_query: "yes", context_sufficiency: "yes" },
      ],
      [
        "hallucinated",
        record.hallucinated_answer,
        { line, knowledge: record.knowledge },
        { correctness: "no", groundedness: "no", relevance_to_query: "yes", context_sufficiency: "yes" },
      ],
      [
        "other_passage",
        record.right_answer,
        { line: partner.line, knowledge: partner.record.knowledge },
        { correctness: "yes", groundedness: null, relevance_to_query: "yes", context_sufficiency: "no" },
      ],
      [
        "other_answer",
        partner.record.hallucinated_answer,
        { line, knowledge: record.knowledge },
        { correctness: "no", groundedness: null, relevance_to_query: "no", context_sufficiency: "yes" },
      ],
    ];
    for (const [variant, response, context, label] of variants) {
      const requestId = `halueval-qa-${pad(line)}-${variant}`;
      rows.push(
        JSON.stringify({
          request_id: requestId,
          request: question,
          response: response.trim(),
          expected_response: record.right_answer.trim(),
          retrieved_context: [{ content: context.knowledge.trim(), doc_uri: docUri(context.line) }],
        }),
      );
      labels.push(JSON.stringify({ request_id: requestId, split, source_line: line, variant, ...label }));
    }
  });
  fs.writeFileSync(path.join(dir, `${split}.jsonl`), `${rows.join("\n")}\n`);
  fs.writeFileSync(path.join(dir, `${split}.labels.jsonl`), `${labels.join("\n")}\n`);
  console.log(`${split}: ${members.length} source records, ${rows.length} rows`);
}
