import { z } from "zod";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { normalizeRequest } from "@/lib/ingest/normalizeRequest";
import { judgeHeuristically } from "@/lib/judges/heuristic";
import type { Rating } from "@/lib/contract/judgeResult";
import type { JudgeInput } from "@/lib/judges/types";

/**
 * Agreement of the offline judge with the known labels of the sample set
 * (prisma/sample/sample-eval-set.jsonl). The labels come from how the set was
 * built, never from the heuristic's output; the rules are general and never
 * look at row ids. The table is printed so regressions show up as numbers.
 */

const turnSchema = z.object({ role: z.string(), content: z.string() });
const sampleRowSchema = z.looseObject({
  request_id: z.string().optional(),
  request: z.union([
    z.string(),
    z.looseObject({ messages: z.array(turnSchema) }),
    z.looseObject({ query: z.string(), history: z.array(turnSchema).optional() }),
  ]),
  response: z.string().optional(),
  expected_facts: z.array(z.string()).optional(),
  expected_response: z.string().optional(),
  retrieved_context: z.array(z.looseObject({ content: z.string().nullish(), doc_uri: z.string() })).optional(),
  expected_retrieved_context: z.array(z.looseObject({ doc_uri: z.string() })).optional(),
});
type SampleRow = z.infer<typeof sampleRowSchema>;

// The request as ingest normalises it: messages, and the last user turn as the request text.
function toInput(row: SampleRow): JudgeInput {
  const normalized = normalizeRequest(row.request);
  if ("error" in normalized) throw new Error(`${row.request_id}: ${normalized.error}`);
  return {
    messages: normalized.messages,
    request: normalized.text,
    response: row.response ?? null,
    expectedFacts: row.expected_facts ?? null,
    expectedResponse: row.expected_response ?? null,
    retrievedContext: (row.retrieved_context ?? []).map((c) => ({ content: c.content ?? null, docUri: c.doc_uri })),
  };
}

const rows = fs
  .readFileSync(path.resolve(import.meta.dirname, "../../prisma/sample/sample-eval-set.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim())
  .map((line, i) => {
    const row = sampleRowSchema.parse(JSON.parse(line));
    return { id: row.request_id ?? `row-${i + 1}`, row, input: toInput(row) };
  });

// Known labels of the sample set.
const CONTRADICTS_TRUTH = ["nw-005", "nw-012", "nw-024", "nw-031", "nw-044"];
const HALLUCINATED = ["nw-010", "nw-017", "nw-033", "nw-047"];
const RETRIEVAL_MISS = ["nw-009", "nw-026", "nw-039", "nw-048"];
const OFF_TOPIC = ["nw-020", "nw-037"];
const UNSAFE = ["nw-041"];

// Derived labels, stated once: a retrieval miss leaves the answer without the expected facts, so it is
// also incorrect; the contradicting answers contradict chunks that state the truth, and the unsafe
// answer's steps are in no chunk, so both are also ungrounded.
const expected: Record<string, (id: string) => Rating> = {
  correctness: (id) => ([...CONTRADICTS_TRUTH, ...RETRIEVAL_MISS].includes(id) ? "no" : "yes"),
  relevance_to_query: (id) => (OFF_TOPIC.includes(id) ? "no" : "yes"),
  groundedness: (id) => ([...HALLUCINATED, ...CONTRADICTS_TRUTH, ...UNSAFE].includes(id) ? "no" : "yes"),
  safety: (id) => (UNSAFE.includes(id) ? "no" : "yes"),
  context_sufficiency: (id) => (RETRIEVAL_MISS.includes(id) ? "no" : "yes"),
};

const METRICS: Record<string, string> = {
  correctness: "response/llm_judged/correctness",
  relevance_to_query: "response/llm_judged/relevance_to_query",
  groundedness: "response/llm_judged/groundedness",
  safety: "response/llm_judged/safety",
  context_sufficiency: "retrieval/llm_judged/context_sufficiency",
};

type Agreement = { judge: string; agree: number; total: number; misses: string[] };

function agreementFor(judge: string): Agreement {
  const result: Agreement = { judge, agree: 0, total: 0, misses: [] };
  for (const { id, input } of rows) {
    const verdict = judgeHeuristically(METRICS[judge], input);
    if (verdict.errorMessage) continue; // the row lacks this judge's inputs (e.g. trace-only rows)
    result.total += 1;
    if (verdict.rating === expected[judge](id)) result.agree += 1;
    else result.misses.push(`${id}→${verdict.rating}`);
  }
  return result;
}

/** chunk_relevance: chunks listed in expected_retrieved_context should be "yes"; every chunk of a retrieval miss is off-topic, "no". */
function chunkAgreement(): Agreement {
  const result: Agreement = { judge: "chunk_relevance (per chunk)", agree: 0, total: 0, misses: [] };
  for (const { id, row, input } of rows) {
    if (input.retrievedContext.length === 0) continue;
    const verdict = judgeHeuristically("retrieval/llm_judged/chunk_relevance", input);
    const relevantUris = new Set((row.expected_retrieved_context ?? []).map((c) => c.doc_uri));
    verdict.chunks?.forEach((chunk, i) => {
      const want: Rating | null = relevantUris.has(input.retrievedContext[i].docUri)
        ? "yes"
        : RETRIEVAL_MISS.includes(id)
          ? "no"
          : null;
      if (want === null) return;
      result.total += 1;
      if (chunk.rating === want) result.agree += 1;
      else result.misses.push(`${id}#${i + 1}→${chunk.rating}`);
    });
  }
  return result;
}

const table = [...Object.keys(METRICS).map(agreementFor), chunkAgreement()];
const rate = (a: Agreement) => a.agree / a.total;

describe("agreement with the labelled sample set", () => {
  it("prints the agreement table", () => {
    const lines = table.map(
      (a) =>
        `${a.judge.padEnd(28)} ${String(a.agree).padStart(2)}/${String(a.total).padEnd(2)} ${(rate(a) * 100).toFixed(0).padStart(3)}%  ${a.misses.join(" ")}`,
    );
    console.log(["heuristic judge agreement (sample-eval-set.jsonl)", ...lines].join("\n"));
    expect(table.every((a) => a.total > 0)).toBe(true);
  });

  // Floors just under what the rules measured on this set: a drop means a rule regressed.
  it.each([
    ["safety", 1],
    ["relevance_to_query", 0.9],
    ["correctness", 0.9],
    ["groundedness", 0.85],
    ["context_sufficiency", 0.9],
    ["chunk_relevance (per chunk)", 0.8],
  ])("%s agrees on at least %s of the labelled rows", (judge, floor) => {
    const a = table.find((t) => t.judge === judge);
    expect(a).toBeDefined();
    expect(rate(a!)).toBeGreaterThanOrEqual(floor);
  });

  it("flags every known flawed row in its own judge", () => {
    const rating = (metric: string, id: string) =>
      judgeHeuristically(metric, rows.find((r) => r.id === id)!.input).rating;
    expect(UNSAFE.map((id) => rating(METRICS.safety, id))).toEqual(["no"]);
    expect(OFF_TOPIC.map((id) => rating(METRICS.relevance_to_query, id))).toEqual(["no", "no"]);
    expect(HALLUCINATED.map((id) => rating(METRICS.groundedness, id))).toEqual(["no", "no", "no", "no"]);
    expect(RETRIEVAL_MISS.map((id) => rating(METRICS.context_sufficiency, id))).toEqual(["no", "no", "no", "no"]);
    expect(CONTRADICTS_TRUTH.map((id) => rating(METRICS.correctness, id))).toEqual(["no", "no", "no", "no", "no"]);
  });
});
