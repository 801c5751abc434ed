// Relative imports: the benchmarks, bundled by esbuild, use this file too.
import { createHash } from "node:crypto";
import type { ChatBody, Responder } from "./fakeOpenAIServer";
import { fencedContents } from "./fenced";

/** The two responses of a pairwise prompt, in the order shown (A first). */
export function shownResponses(body: ChatBody): { a: string; b: string } {
  const prompt = ((body.messages ?? []) as { role: string; content: string }[])
    .filter((m) => m.role === "user")
    .map((m) => m.content)
    .join("\n");
  return { a: fencedContents(prompt, "response_a")[0] ?? "", b: fencedContents(prompt, "response_b")[0] ?? "" };
}

const isPairwise = (body: ChatBody) =>
  (body.response_format?.json_schema?.name ?? body.tools?.[0]?.function?.name) === "pairwise_verdict";

/**
 * A pairwise judge that answers at random, A, B or tie alike, each call independently: its choice comes from the
 * sha256 of the seed and the prompt (a PRNG's first draw from neighbouring seeds, one per call, was correlated
 * enough to shift the tie rate at 500 pairs). The prompt, not the call's place in line: with several calls in
 * flight, which pair and order got which index changed from run to run, and with it the pairs' statistics, so a
 * test's intervals missed the truth on some runs and not others.
 */
export function randomPairwiseResponder(seed: number): Responder {
  return (body) => {
    if (!isPairwise(body)) return undefined;
    const digest = createHash("sha256")
      .update(`${seed}|${JSON.stringify(body.messages ?? [])}`)
      .digest();
    const winner = (["A", "B", "tie"] as const)[digest.readUInt32BE(0) % 3];
    return JSON.stringify({ rationale: `picked ${winner} at random`, winner });
  };
}

/** A judge with nothing but position bias: the response shown first always wins. */
export const firstShownResponder: Responder = (body) =>
  isPairwise(body) ? JSON.stringify({ rationale: "the first answer reads better", winner: "A" }) : undefined;

/** A judge that prefers the response carrying `marker`, and calls it a tie when both or neither do. */
export function markerResponder(marker: string): Responder {
  return (body) => {
    if (!isPairwise(body)) return undefined;
    const { a, b } = shownResponses(body);
    const winner = a.includes(marker) === b.includes(marker) ? "tie" : a.includes(marker) ? "A" : "B";
    return JSON.stringify({ rationale: `the ${winner === "tie" ? "two answers" : winner} ${marker}`, winner });
  };
}

/** The same requests uploaded twice (as two CI builds do), the candidate's answers prefixed with `marker`. */
export function markedRows(count: number, marker: string) {
  return Array.from({ length: count }, (_, i) => ({
    request_id: `q-${i}`,
    request: `What is the capital of country ${i}?`,
    response: `${marker}The capital of country ${i} is City ${i}.`,
    expected_response: `City ${i}`,
  }));
}
