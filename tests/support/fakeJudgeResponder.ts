import type { Responder } from "./fakeOpenAIServer";
import { fencedContents } from "./fenced";
import { markerResponder } from "./fakePairwiseResponders";

/**
 * Makes the fake OpenAI server answer like a judge whose verdicts the test
 * controls through markers in the judged content, so aggregates can be
 * computed by hand:
 *   - a binary judge (schema *_verdict) answers "no" when the prompt contains
 *     `NO:<schemaName>` or `NO:all`, else "yes";
 *   - a per-item judge (chunks or facts) answers one verdict per fenced item,
 *     "no" for an item whose text contains `IRRELEVANT` (chunks) or `MISSING` (facts);
 *   - a pairwise judge (schema pairwise_verdict) prefers the response containing `BETTER`, else says tie;
 *   - `GARBAGE:<schemaName>` makes every answer invalid JSON (so retries and the
 *     repair attempt fail, and the judgment becomes an error).
 * Plain chat requests (generation) get "Generated answer to: <request>".
 */
export const fakeJudgeResponder: Responder = (body, ctx) => {
  const schemaName: string = body.response_format?.json_schema?.name ?? body.tools?.[0]?.function?.name ?? "";
  const prompt = (body.messages as { role: string; content: string }[])
    .filter((m) => m.role === "user")
    .map((m) => m.content)
    .join("\n");
  if (ctx.mode === "text") return `Generated answer to: ${prompt.slice(0, 200)}`;
  if (prompt.includes(`GARBAGE:${schemaName}`) || prompt.includes("GARBAGE:all")) return "this is { not json";
  // A pairwise judge that prefers the answer marked BETTER, and calls the rest ties.
  if (schemaName === "pairwise_verdict") return markerResponder("BETTER")(body, ctx);
  if (schemaName.endsWith("_verdicts")) {
    const chunks = fencedContents(prompt, "chunk");
    return JSON.stringify({
      verdicts: chunks.map((text, i) => ({
        chunk_index: i + 1,
        rationale: `chunk ${i + 1} checked`,
        rating: text.includes("IRRELEVANT") ? "no" : "yes",
      })),
    });
  }
  if (schemaName === "correctness_facts_verdict") {
    const facts = fencedContents(prompt, "expected_fact");
    return JSON.stringify({
      verdicts: facts.map((text, i) => ({
        fact_index: i + 1,
        rationale: `fact ${i + 1} checked`,
        rating: text.includes("MISSING") ? "no" : "yes",
      })),
    });
  }
  const no = prompt.includes(`NO:${schemaName}`) || prompt.includes("NO:all");
  return JSON.stringify({
    rationale: `${schemaName}: ${no ? "marker found" : "looks fine"}`,
    rating: no ? "no" : "yes",
  });
};
