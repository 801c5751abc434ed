import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createJudgeCache } from "@/lib/db/judgeCache/judgeCacheRepository";
import { gEvalDefinitionSchema } from "@/lib/contract/gEvalDefinition";
import { createGEvalJudge, SCORE_VERSION, withGEvalJudges } from "@/lib/judges/geval";
import { createLlmJudgeBackend } from "@/lib/judges/llmJudgeBackend";
import { makeClient, openAiConfig } from "../llm/llmTestKit";
import { startFakeOpenAIServer, type FakeOpenAIServer, type Responder } from "../support/fakeOpenAIServer";
import { row } from "../support/judgeInputs";
import { createTempDb } from "../support/tempDb";

// G-Eval through the real openai SDK and client, the fake server and a real
// SQLite judge cache: steps once per (criteria, model), then one form-filling
// call per row, weighted by the returned token probabilities when there are any.

const STEPS = ["Read the actual output.", "Check that each sentence follows from the previous one.", "Score 1-5."];
/** The top alternatives at the score token: 4 (0.5), 3 (0.3), 5 (0.15), 2 (0.005, under 1%: dropped). */
const SCORE_TOKEN_TOP: [string, number][] = [
  ["4", 0.5],
  ["3", 0.3],
  ["5", 0.15],
  ["2", 0.005],
];
const WEIGHTED = (4 * 0.5 + 3 * 0.3 + 5 * 0.15) / 0.95;

let logprobsMode: "none" | "full" = "full";
const lp = (token: string, top: [string, number][] = [[token, 1]]) => ({
  token,
  logprob: Math.log(top.find(([t]) => t === token)?.[1] ?? 1),
  bytes: null,
  top_logprobs: top.map(([t, p]) => ({ token: t, logprob: Math.log(p), bytes: null })),
});
const responder: Responder = (body) => {
  const name = body.response_format?.json_schema?.name;
  if (name === "g_eval_steps") return JSON.stringify({ steps: STEPS });
  if (name !== "g_eval_score") return undefined;
  const content = JSON.stringify({ score: 4, reason: "Mostly coherent." });
  if (logprobsMode === "none" || !body.logprobs) return content;
  const tokens = [lp('{"'), lp("score"), lp('":'), lp("4", SCORE_TOKEN_TOP), lp(',"'), lp("reason")];
  return { content, logprobs: { content: tokens, refusal: null } };
};

let db: Db;
let cleanup: () => Promise<void>;
let server: FakeOpenAIServer;
const coherence = gEvalDefinitionSchema.parse({
  name: "coherence",
  criteria: "Coherence - the collective quality of all sentences in the actual output.",
  evaluationParams: ["input", "actual_output"],
  threshold: 0.6,
});
const rows = [1, 2, 3].map((n) => row(`Question ${n}?`, { response: `Answer ${n}. It follows.` }));
const schemaCalls = (name: string) =>
  server.requests.filter((r) => r.body.response_format?.json_schema?.name === name).length;

beforeAll(async () => {
  ({ db, cleanup } = await createTempDb());
  server = await startFakeOpenAIServer({ responder });
});
afterAll(async () => {
  await server.close();
  await cleanup();
});
beforeEach(() => {
  server.requests.length = 0;
  logprobsMode = "full";
});

const newJudge = () =>
  createGEvalJudge({ llm: makeClient(openAiConfig(server.url)).client, cache: createJudgeCache(db) });

describe("G-Eval", () => {
  it("generates the steps once for concurrent rows, then scores each row in one call, weighted by the score token's probabilities", async () => {
    const geval = newJudge();
    const results = await Promise.all(rows.map((input) => geval.judge(coherence, input)));
    expect(schemaCalls("g_eval_steps")).toBe(1);
    expect(schemaCalls("g_eval_score")).toBe(3);
    const scoreRequest = server.requests.find((r) => r.body.response_format?.json_schema?.name === "g_eval_score");
    expect([scoreRequest?.body.logprobs, scoreRequest?.body.top_logprobs]).toEqual([true, 20]);
    expect(scoreRequest?.body.messages[0].content).toContain(
      "2. Check that each sentence follows from the previous one.",
    );

    const steps = await geval.evaluationSteps(coherence);
    for (const result of results) {
      expect(result.errorMessage).toBeNull();
      expect(result.score).toBeCloseTo((WEIGHTED - 1) / 4, 12);
      expect(result.details?.figures?.raw_score).toBe(4);
      expect(result.details?.figures?.weighted_score).toBeCloseTo(WEIGHTED, 12);
      expect(result.details?.figures?.p_2).toBe(0);
      expect(result.details?.figures?.p_4).toBeCloseTo(0.5 / 0.95, 12);
      expect(result.details?.groups[0].items.map((item) => item.text)).toEqual(STEPS);
      expect(result.promptVersion).toBe(`${SCORE_VERSION} steps:${steps.stepsHash.slice(0, 16)}`);
      expect(result.rationale).toBe("Mostly coherent.");
    }
    // Only one row carries the steps call's cost.
    expect(results.filter((r) => r.attempts === 2)).toHaveLength(1);
  });

  it("reuses the stored steps in a new judge (another process) and the stored scores on a re-run: no call at all", async () => {
    const geval = newJudge();
    const steps = await geval.evaluationSteps(coherence);
    expect([steps.cacheHit, steps.steps]).toEqual([true, STEPS]);
    const again = await Promise.all(rows.map((input) => geval.judge(coherence, input)));
    expect(server.requests).toHaveLength(0);
    expect(again.every((r) => r.cacheHit && r.details?.figures?.weighted_score !== null)).toBe(true);
  });

  it("new criteria get their own steps; the steps hash names them in the provenance", async () => {
    const geval = newJudge();
    const other = { ...coherence, name: "brevity", criteria: "Brevity - the output is short." };
    const [a, b] = await Promise.all([geval.evaluationSteps(coherence), geval.evaluationSteps(other)]);
    expect(schemaCalls("g_eval_steps")).toBe(1);
    expect(b.promptHash).not.toBe(a.promptHash);
    expect(b.stepsHash).toBe(a.stepsHash); // the fake writes the same steps; the hash is of the steps
  });

  it("falls back to the plain score when the endpoint returns no log-probabilities", async () => {
    logprobsMode = "none";
    const geval = newJudge();
    const result = await geval.judge(coherence, row("Unweighted?", { response: "Plain." }));
    expect(result.score).toBe(0.75);
    expect(result.details?.figures).toMatchObject({ raw_score: 4, weighted_score: null, p_4: null });
  });

  it("asks again without logprobs, once per model, when the endpoint rejects the parameter", async () => {
    const geval = newJudge();
    server.enqueue({ kind: "400", message: "logprobs is not supported by this model" });
    const first = await geval.judge(coherence, row("Rejects 1?", { response: "A." }));
    const second = await geval.judge(coherence, row("Rejects 2?", { response: "B." }));
    expect([first.errorMessage, first.score, second.score]).toEqual([null, 0.75, 0.75]);
    expect(server.requests.map((r) => Boolean(r.body.logprobs))).toEqual([true, false, false]);
  });

  it("makes a failed steps call an error result for the row, and tries again for the next row", async () => {
    const geval = newJudge();
    const fresh = { ...coherence, criteria: "Politeness - the output is polite." };
    server.enqueue({ kind: "401" });
    const failed = await geval.judge(fresh, rows[0]);
    expect(failed.score).toBeNull();
    expect(failed.errorMessage).toMatch(/evaluation steps/);
    const next = await geval.judge(fresh, rows[0]);
    expect(next.errorMessage).toBeNull();
  });
});

describe("G-Eval beside the built-in judges", () => {
  it("routes a run's G-Eval metric names to G-Eval (steps already stored: no steps call) and every other metric to the LLM judge backend", async () => {
    const llm = makeClient(openAiConfig(server.url)).client;
    const cache = createJudgeCache(db);
    const backend = withGEvalJudges(
      createLlmJudgeBackend({ llm, cache }),
      createGEvalJudge({ llm, cache }),
      new Map([["response/llm_judged/g_eval/coherence", coherence]]),
    );
    const input = row("Routed?", { response: "Routed answer." });
    const geval = await backend.judge({ metric: "response/llm_judged/g_eval/coherence", input, chunkMode: "batched" });
    expect(geval.promptVersion.startsWith(SCORE_VERSION)).toBe(true);
    expect(geval.score).toBeCloseTo((WEIGHTED - 1) / 4, 12);
    const builtIn = await backend.judge({ metric: "response/llm_judged/safety", input, chunkMode: "batched" });
    expect(builtIn.promptVersion).toBe("safety/v4");
    expect(server.requests.map((r) => r.body.response_format?.json_schema?.name)).toEqual([
      "g_eval_score",
      "safety_verdict",
    ]);
  });
});
