import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alignJudge, exampleText, type AlignmentUnit } from "@/lib/alignment/alignJudge";
import type { JudgeBackend } from "@/lib/judges/judgeBackend";
import type { Alignment } from "@/lib/contract/alignment";
import type { CustomJudgeDefinition } from "@/lib/contract/judgeDefinitions";
import type { JudgeInput } from "@/lib/judges/types";
import { openFakeLlmBackend } from "../support/fakeLlmBackend";
import type { FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { fakeExampleFollower } from "../support/fakeExampleFollower";
import { fencedContents } from "../support/fenced";
import { row } from "../support/judgeInputs";

// An aligned custom judge through the real LLM judge backend, openai SDK, fake server and judge cache. The
// fake model answers "yes" unless its prompt holds labelled examples; then it answers like the example
// whose text shares the most words with the response it judges. So the examples carry the people's
// labels into the verdicts, and the held-out comparison has to show whether that helped.

const TOPICS = ["refund", "invoice", "password", "shipping", "warranty", "discount", "account", "delivery"];

let server: FakeOpenAIServer;
let backend: JudgeBackend;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ server, backend, close } = await openFakeLlmBackend(fakeExampleFollower));
});
afterAll(async () => close());

const judge: CustomJudgeDefinition = {
  assessmentName: "tone",
  assessmentType: "ANSWER",
  instructions: "Is the response polite and helpful?",
};
const METRIC = "response/llm_judged/tone";

/** 80 labelled rows: the people say "no" to responses that brush the user off ("figure it out"), "yes" otherwise. */
function labelledRows(signal: boolean) {
  return Array.from({ length: 80 }, (_, i) => {
    const topic = TOPICS[i % TOPICS.length];
    const rude = i % 2 === 1;
    const response = rude
      ? `Figure out the ${topic} yourself, it is not my job. Case ${i}.`
      : `Happy to help with your ${topic}: here are the steps. Case ${i}.`;
    // Without signal the labels ignore the response: every fourth and fifth row, whatever it says.
    const label: "yes" | "no" = signal ? (rude ? "no" : "yes") : i % 4 < 2 ? "yes" : "no";
    return { key: `r${i}`, label, input: row(`A question about my ${topic}`, { response }) as JudgeInput };
  });
}

async function verdictOf(input: JudgeInput, alignment?: Alignment): Promise<"yes" | "no" | null> {
  const result = await backend.judge({
    metric: METRIC,
    input,
    custom: judge,
    chunkMode: "batched",
    ...(alignment ? { alignment } : {}),
  });
  return result.errorMessage ? null : result.rating;
}

async function align(signal: boolean) {
  // The original judge's verdicts, as a base run would have them.
  const units: AlignmentUnit[] = [];
  for (const unit of labelledRows(signal))
    units.push({ ...unit, verdict: await verdictOf(unit.input), chunkPosition: -1, reason: null });
  const before = server.requests.length;
  const outcome = await alignJudge(
    units,
    { judgeAligned: (unit, alignment) => verdictOf(unit.input, alignment) },
    { seed: "tone-1", maxExamples: 8, maxExampleTokens: 2000 },
  );
  const heldOut = units.filter((u) => outcome.heldOutKeys.includes(u.key));
  return { ...outcome, heldOut, prompts: server.requests.slice(before) };
}

describe("an aligned judge, proved on rows it never saw", () => {
  // One alignment, its every held-out prompt recorded (a second would be answered from the judge cache).
  let withSignal: Awaited<ReturnType<typeof align>>;
  beforeAll(async () => {
    withSignal = await align(true);
  });

  it("agrees more on the held-out rows when the examples carry the people's line", () => {
    const { heldOutKeys, comparison, promptSuffix } = withSignal;
    expect(heldOutKeys).toHaveLength(32);
    expect(promptSuffix).toMatch(/^\+aligned\/[0-9a-f]{12}$/);
    expect(comparison.original.rawAgreement).toBe(0.5); // the default "yes" is right on the polite half only
    expect(comparison.aligned.rawAgreement).toBe(1);
    expect(comparison.verdict).toBe("agrees more (real)");
  });

  it("shows no held-out row in any prompt of the aligned judge", () => {
    const { alignment, trainingKeys, heldOut, prompts } = withSignal;
    const heldOutTexts = new Set(heldOut.map((u) => exampleText(u)));
    expect(alignment.examples.every((e) => trainingKeys.includes(e.key))).toBe(true);
    const aligned = prompts.filter((r) => String(r.body.messages[0].content).includes("untrusted_example"));
    expect(aligned.length).toBeGreaterThan(0);
    for (const request of aligned)
      for (const example of fencedContents(String(request.body.messages[1].content), "example"))
        expect(heldOutTexts.has(example.split("\n\nThe person's answer")[0])).toBe(false);
  });

  it("says no real change when the labels carry no signal the examples could teach", async () => {
    const { comparison } = await align(false);
    expect(comparison.verdict).toBe("no real change");
  });
});
