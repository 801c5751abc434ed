import { describe, expect, it } from "vitest";
import { judgeHeuristically } from "@/lib/judges/heuristic";
import type { CustomJudgeDefinition } from "@/lib/contract/judgeDefinitions";
import type { JudgeInput } from "@/lib/judges/types";

function input(response: string | null, chunks: (string | null)[] = []): JudgeInput {
  const request = "How should our CI pipeline authenticate?";
  return {
    messages: [{ role: "user", content: request }],
    request,
    response,
    expectedResponse: null,
    expectedFacts: null,
    retrievedContext: chunks.map((content, i) => ({ content, docUri: `doc-${i + 1}` })),
  };
}

const answerJudge = (instructions: string): CustomJudgeDefinition => ({
  assessmentName: "policy",
  assessmentType: "ANSWER",
  instructions,
});
const retrievalJudge = (instructions: string): CustomJudgeDefinition => ({
  assessmentName: "about_keys",
  assessmentType: "RETRIEVAL",
  instructions,
});

describe("custom ANSWER judges (keyword approximation)", () => {
  it("requires quoted phrases in positive instructions", () => {
    const def = answerJudge('The response must recommend "least privilege".');
    const yes = judgeHeuristically(
      "response/llm_judged/policy",
      input("Use a service account with a least privilege policy."),
      def,
    );
    expect(yes).toMatchObject({ rating: "yes", score: null, errorMessage: null });
    expect(yes.rationale).toMatch(/^Keyword approximation of the instructions/);
    expect(yes.rationale).toContain('1 of 1 quoted phrases present ("least privilege" ✓)');
    const no = judgeHeuristically("response/llm_judged/policy", input("Use the root key."), def);
    expect(no.rating).toBe("no");
    expect(no.rationale).toContain("not met: 0 of 1 quoted phrases present");
  });

  it("inverts negative instructions, ignoring sentences that are themselves negated", () => {
    const def = answerJudge("The answer must not mention pricing or costs.");
    const violated = judgeHeuristically(
      "response/llm_judged/policy",
      input("Pricing: the key costs $1 per month."),
      def,
    );
    expect(violated.rating).toBe("no");
    expect(violated.rationale).toContain(
      'must-not clause "The answer must not mention pricing or costs." violated: 2 of 2 keywords present (100%): "pricing", "costs"',
    );
    const respected = judgeHeuristically(
      "response/llm_judged/policy",
      input("Create a service account key. This has no pricing or cost impact."),
      def,
    );
    expect(respected.rating).toBe("yes");
    expect(respected.rationale).toContain("respected");
  });

  it("uses content words when nothing is quoted, minus words about judging", () => {
    const def = answerJudge("Check whether the response recommends rotating access keys regularly.");
    expect(
      judgeHeuristically("response/llm_judged/policy", input("Rotate access keys every 90 days."), def).rating,
    ).toBe("yes");
    expect(judgeHeuristically("response/llm_judged/policy", input("Store secrets in a vault."), def).rating).toBe("no");
  });

  it("works on Spanish and German instructions", () => {
    expect(
      judgeHeuristically(
        "response/llm_judged/policy",
        input("Usa una cuenta de servicio."),
        answerJudge("La respuesta nunca debe recomendar claves raíz."),
      ).rating,
    ).toBe("yes");
    expect(
      judgeHeuristically(
        "response/llm_judged/policy",
        input("Nutze Root-Schlüssel."),
        answerJudge("Die Antwort darf nicht Root-Schlüssel empfehlen."),
      ).rating,
    ).toBe("no");
  });

  it("returns an error verdict when the instructions contain nothing checkable", () => {
    const v = judgeHeuristically(
      "response/llm_judged/policy",
      input("Anything."),
      answerJudge("Rate yes if the response is relevant to the request."),
    );
    expect(v.errorMessage).toContain("found no keywords");
    expect(v.rating).toBeNull();
  });
});

describe("custom RETRIEVAL judges (keyword approximation)", () => {
  const def = retrievalJudge('The chunk must mention "access key" and rotation.');

  it("rates every chunk and reports precision", () => {
    const v = judgeHeuristically(
      "retrieval/llm_judged/about_keys",
      input(null, [
        "Rotate each access key every 90 days; rotation needs two keys.",
        "Invoices are due within 30 days.",
        null,
      ]),
      def,
    );
    expect(v.rating).toBeNull();
    expect(v.chunks?.map((c) => c.rating)).toEqual(["yes", "no", "no"]);
    expect(v.score).toBeCloseTo(1 / 3);
    expect(v.rationale).toBe(
      '1 of 3 chunks meet "about_keys" by keyword approximation of the instructions: precision 0.33.',
    );
    expect(v.chunks?.[0].rationale).toMatch(/^Keyword approximation of the instructions/);
    expect(v.chunks?.[2].rationale).toContain("no text content");
  });

  it("errors on missing chunks and on a metric name that does not match the definition", () => {
    expect(judgeHeuristically("retrieval/llm_judged/about_keys", input("x"), def).errorMessage).toBe(
      "Cannot judge without retrieved_context.",
    );
    expect(judgeHeuristically("response/llm_judged/about_keys", input("x", ["a"]), def).errorMessage).toContain(
      "reports as retrieval/llm_judged/about_keys",
    );
  });
});
