import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createJudgeCache } from "@/lib/db/judgeCache/judgeCacheRepository";
import { gEvalDefinitionSchema } from "@/lib/contract/gEvalDefinition";
import { createGEvalJudge, withGEvalJudges } from "@/lib/judges/geval";
import { hashSteps, STRICT_SCORE_VERSION } from "@/lib/judges/geval/prompts";
import { createLlmJudgeBackend } from "@/lib/judges/llmJudgeBackend";
import { deepEvalSettings } from "@/lib/contract/deepEvalSettings";
import { makeClient, openAiConfig } from "../llm/llmTestKit";
import { startFakeOpenAIServer, type FakeOpenAIServer, type Responder } from "../support/fakeOpenAIServer";
import { row } from "../support/judgeInputs";
import { createTempDb } from "../support/tempDb";

// G-Eval's scales, rubric, author-written steps and strict mode through the real openai SDK, the
// fake server and a real SQLite judge cache. The expected scores follow DeepEval's GEval by hand:
// weighted = Σ p(s)·s over the score token's alternatives that are scores (≥ 1%, renormalised;
// calculate_weighted_summed_score), score = (weighted − range start) / range span, where the range is
// the scale's or, with a rubric, the first range's start to the last range's end (get_score_range).

/** What the fake model answers: its score, its reason, and the alternatives at the score's token. */
let answer: { score: number; reason: string; top: [string, number][] } = { score: 7, reason: "Fine.", top: [] };
const lp = (token: string, top: [string, number][] = [[token, 1]]) => ({
  token,
  logprob: Math.log(top.find(([t]) => t === token)?.[1] ?? 1),
  bytes: null,
  top_logprobs: top.map(([t, p]) => ({ token: t, logprob: Math.log(p), bytes: null })),
});
const responder: Responder = (body) => {
  const name = body.response_format?.json_schema?.name;
  if (name === "g_eval_steps") return JSON.stringify({ steps: ["Generated step one.", "Generated step two."] });
  if (name !== "g_eval_score") return undefined;
  const content = JSON.stringify({ reason: answer.reason, score: answer.score });
  if (!body.logprobs) return content;
  const score = String(answer.score);
  // The reason comes first and may spell the score too, with other odds: only the last such token is the score's.
  const tokens = [
    lp('{"'),
    lp("reason"),
    lp('":"'),
    lp(score, [
      [score, 0.2],
      ["1", 0.8],
    ]),
    lp('","'),
    lp("score"),
    lp('":'),
    lp(score, answer.top.length > 0 ? answer.top : [[score, 1]]),
    lp("}"),
  ];
  return { content, logprobs: { content: tokens, refusal: null } };
};

let db: Db;
let cleanup: () => Promise<void>;
let server: FakeOpenAIServer;
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
});

const newJudge = () =>
  createGEvalJudge({ llm: makeClient(openAiConfig(server.url)).client, cache: createJudgeCache(db) });
const scoreRequests = () => server.requests.filter((r) => r.body.response_format?.json_schema?.name === "g_eval_score");
const stepsRequests = () => server.requests.filter((r) => r.body.response_format?.json_schema?.name === "g_eval_steps");
const base = { evaluationParams: ["input", "actual_output"], criteria: "Helpfulness - the output answers the input." };

describe("G-Eval's scale", () => {
  it("0–10 as DeepEval: asked for 0 to 10, the reason before the score, weighted at the score's own token", async () => {
    const definition = gEvalDefinitionSchema.parse({ ...base, name: "helpful_ten", scale: "0-10" });
    answer = {
      score: 7,
      reason: "7 of the points are covered.",
      top: [
        ["7", 0.6],
        ["8", 0.3],
        ["6", 0.095],
        ["9", 0.005], // under 1%: dropped
      ],
    };
    const result = await newJudge().judge(definition, row("Ten?", { response: "An answer." }));
    const request = scoreRequests()[0];
    expect(Object.keys(request.body.response_format.json_schema.schema.properties)).toEqual(["reason", "score"]);
    expect(request.body.response_format.json_schema.schema.properties.score).toMatchObject({ minimum: 0, maximum: 10 });
    expect(request.body.messages[0].content).toContain("Give an integer score from 0 to 10");
    const weighted = (7 * 0.6 + 8 * 0.3 + 6 * 0.095) / 0.995;
    expect(result.details?.figures?.weighted_score).toBeCloseTo(weighted, 12);
    expect(result.score).toBeCloseTo(weighted / 10, 12);
    expect(result.details?.figures).toMatchObject({ raw_score: 7, range_low: 0, range_high: 10, p_9: 0, p_0: 0 });
    expect(result.rationale).toBe("7 of the points are covered.");
  });

  it("1–5 stays the default, normalised as (s − 1) / 4", async () => {
    const definition = gEvalDefinitionSchema.parse({ ...base, name: "helpful_five" });
    expect(definition.scale).toBe("1-5");
    answer = { score: 4, reason: "Good.", top: [] };
    const result = await newJudge().judge(definition, row("Five?", { response: "An answer." }));
    expect(scoreRequests()[0].body.messages[0].content).toContain("Give an integer score from 1 to 5");
    expect(result.score).toBe(0.75);
  });
});

describe("a rubric", () => {
  const rubric = [
    { scoreRange: [5, 8], expectedOutcome: "Answers the question with minor gaps." },
    { scoreRange: [2, 4], expectedOutcome: "Partly answers the question." },
  ];

  it("is shown in score order, narrows the range to its span (2–8), and the score normalises over that span", async () => {
    const definition = gEvalDefinitionSchema.parse({ ...base, name: "helpful_rubric", scale: "0-10", rubric });
    answer = { score: 5, reason: "Minor gaps.", top: [] };
    const result = await newJudge().judge(definition, row("Rubric?", { response: "An answer." }));
    const request = scoreRequests()[0];
    expect(request.body.messages[0].content).toContain(
      "Rubric:\n2-4: Partly answers the question.\n5-8: Answers the question with minor gaps.",
    );
    expect(request.body.response_format.json_schema.schema.properties.score).toMatchObject({ minimum: 2, maximum: 8 });
    // DeepEval: (5 − 2) / (8 − 2); the weighting's single alternative is 5 itself.
    expect(result.score).toBeCloseTo(0.5, 12);
    const rubricGroup = result.details?.groups.find((group) => group.title === "Rubric");
    expect(rubricGroup?.items.map((item) => [item.verdict, item.tags])).toEqual([
      ["2-4", []],
      ["5-8", ["given"]],
    ]);
  });

  it("is refused when its ranges overlap, leave the scale, or run backwards; criteria or steps are required", () => {
    const problems = (input: object) =>
      gEvalDefinitionSchema.safeParse({ ...base, name: "x", ...input }).error?.issues.map((i) => i.message) ?? [];
    expect(problems({ scale: "0-10", rubric: [...rubric, { scoreRange: [8, 10], expectedOutcome: "Full." }] })).toEqual(
      ["score ranges 5-8 and 8-10 overlap"],
    );
    expect(problems({ rubric })).toEqual(["score range 5-8 is outside the 1-5 scale"]);
    expect(problems({ scale: "0-10", rubric: [{ scoreRange: [6, 3], expectedOutcome: "?" }] })).toEqual([
      "score range 6-3 starts after it ends",
    ]);
    expect(problems({ criteria: undefined })).toEqual(["give the criteria, the evaluation steps, or both"]);
  });
});

describe("evaluation steps written by the judge's author", () => {
  it("are used as written: no steps call, named by their hash, shown as the author's", async () => {
    const steps = ["Check the output answers the input.", "Penalise anything invented."];
    const definition = gEvalDefinitionSchema.parse({
      name: "authored",
      evaluationParams: ["input", "actual_output"],
      evaluationSteps: steps,
    });
    answer = { score: 5, reason: "All steps met.", top: [] };
    const result = await newJudge().judge(definition, row("Authored?", { response: "An answer." }));
    expect(stepsRequests()).toHaveLength(0);
    expect(scoreRequests()).toHaveLength(1);
    expect(scoreRequests()[0].body.messages[0].content).toContain(
      "Evaluation steps:\n1. Check the output answers the input.\n2. Penalise anything invented.",
    );
    expect(scoreRequests()[0].body.messages[0].content).not.toContain("Evaluation criteria");
    expect(result.promptVersion).toBe(`g_eval.score/v3 steps:${hashSteps(steps).slice(0, 16)}`);
    expect(result.details?.groups[0].title).toBe("Evaluation steps (written by the judge's author)");
    expect([result.score, result.attempts]).toEqual([1, 1]);
  });
});

describe("strict mode (DeepEval's strict_mode)", () => {
  it("asks for 1 or 0 without log-probabilities, and the score is that number", async () => {
    const definition = gEvalDefinitionSchema.parse({ ...base, name: "helpful_strict", scale: "0-10" });
    const llm = makeClient(openAiConfig(server.url)).client;
    const cache = createJudgeCache(db);
    const metric = "response/llm_judged/g_eval/helpful_strict";
    const backend = withGEvalJudges(
      createLlmJudgeBackend({ llm, cache }),
      createGEvalJudge({ llm, cache }),
      new Map([[metric, definition]]),
    );
    answer = { score: 1, reason: "Every step is followed.", top: [] };
    const settings = { deepEval: deepEvalSettings({ strictMode: true }) };
    const result = await backend.judge({
      metric,
      input: row("Strict?", { response: "A." }),
      chunkMode: "batched",
      settings,
    });
    const request = scoreRequests()[0];
    expect(request.body.logprobs).toBeUndefined();
    expect(request.body.messages[0].content).toContain(
      "Give a score of 1 when the evaluation steps are followed in full, or 0",
    );
    expect(request.body.response_format.json_schema.schema.properties.score).toMatchObject({ minimum: 0, maximum: 1 });
    expect([result.score, result.promptVersion.split(" ")[0]]).toEqual([1, STRICT_SCORE_VERSION]);
  });
});

describe("DeepEval-exact", () => {
  it("scores 0–10 with steps written for each row, no criteria in the score prompt, and DeepEval's weighting", async () => {
    // A 1–5 judge: DeepEval's GEval has only its 0–10 scale.
    const definition = gEvalDefinitionSchema.parse({ ...base, name: "helpful_exact", scale: "1-5" });
    const llm = makeClient(openAiConfig(server.url)).client;
    const cache = createJudgeCache(db);
    const metric = "response/llm_judged/g_eval/helpful_exact";
    const backend = withGEvalJudges(
      createLlmJudgeBackend({ llm, cache }),
      createGEvalJudge({ llm, cache }),
      new Map([[metric, definition]]),
    );
    // DeepEval keeps every decimal token of at least 1%, in range or not ("11" here), and no other.
    answer = {
      score: 8,
      reason: "Most of it is covered.",
      top: [
        ["8", 0.6],
        ["11", 0.2],
        ["9", 0.195],
        ["x", 0.005],
      ],
    };
    const settings = { deepEval: deepEvalSettings({ exact: true }) };
    const rows = [row("Exact one?", { response: "A." }), row("Exact two?", { response: "B." })];
    const results = [];
    for (const input of rows) results.push(await backend.judge({ metric, input, chunkMode: "batched", settings }));
    // DeepEval's calls: the steps and the score, for every row.
    expect([stepsRequests().length, scoreRequests().length]).toEqual([2, 2]);
    const request = scoreRequests()[0];
    expect(request.body.messages[0].content).not.toContain("Evaluation criteria");
    expect(request.body.messages[0].content).toContain("Evaluation steps:\n1. Generated step one.");
    expect(request.body.response_format.json_schema.schema.properties.score).toMatchObject({ minimum: 0, maximum: 10 });
    const weighted = (8 * 0.6 + 11 * 0.2 + 9 * 0.195) / (0.6 + 0.2 + 0.195);
    expect(results[0].score).toBeCloseTo(Math.min(1, weighted / 10), 12);
    expect(results[0].promptVersion.split(" ")[0]).toBe("g_eval.score/v3+deepeval_exact/v1");
    // The same rows again: each row's steps and score come back from the cache, no call is made.
    server.requests.length = 0;
    for (const input of rows)
      expect((await backend.judge({ metric, input, chunkMode: "batched", settings })).cacheHit).toBe(true);
    expect(server.requests).toHaveLength(0);
  });
});
