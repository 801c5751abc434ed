import { hashString, seededRandom } from "./fakeOpenAISchema";
import type { Responder } from "./fakeOpenAIServer";
import { fakeScoreResponder } from "./fakeScoreResponder";

/** The choices a judge's answer makes, by the values the deterministic answer put there. */
const CHOICES: Record<string, readonly string[]> = {
  yes: ["yes", "no"],
  no: ["yes", "no"],
  idk: ["yes", "no", "idk"],
  high: ["high", "medium", "low", "none"],
  medium: ["high", "medium", "low", "none"],
  low: ["high", "medium", "low", "none"],
  none: ["high", "medium", "low", "none"],
};

/**
 * A judge and a model that answer at random, for A/A checks: nothing real differs between two runs, yet every
 * answer does. Each call takes the deterministic fake's answer (so its shape is right: one verdict per chunk,
 * per claim, per fact) and redraws every choice in it (yes/no/idk verdicts, relevance levels, booleans, a
 * G-Eval score within its range) from a PRNG seeded by `seed` and the call's index, never by its content:
 * the same request asked twice gets two independent answers. A generated response is a random sentence.
 */
export function fakeRandomResponder(seed: number): Responder {
  return async (body, ctx) => {
    const random = seededRandom(hashString(`${seed}|${ctx.requestIndex}`));
    if (ctx.mode === "text") return `Answer ${Math.floor(random() * 1e9)}: it depends on the case.`;
    return redrawAnswer(await fakeScoreResponder(body, ctx), body, random);
  };
}

type ScoreRange = { minimum: number; maximum: number };

function redraw(value: unknown, random: () => number, score: ScoreRange, key = ""): unknown {
  if (Array.isArray(value)) return value.map((item) => redraw(item, random, score));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, redraw(item, random, score, name)]));
  if (typeof value === "string" && CHOICES[value]) return CHOICES[value][Math.floor(random() * CHOICES[value].length)];
  if (typeof value === "boolean") return random() < 0.5;
  if (key === "score" && typeof value === "number" && Number.isFinite(score.maximum))
    return score.minimum + Math.round(random() * (score.maximum - score.minimum));
  return value;
}

/**
 * A deterministic server that honours OpenAI's `seed`, as a model at temperature 0 with a seed does: the
 * same request with the same seed (or none) gets the same answer every time; another seed, an independent
 * redraw. Trials after the first ask with seed = trial, so each trial gets its own answer here, and a judge
 * cache that handed trial 2 the answer of trial 1 would show as trials that always agree.
 */
export function fakeSeededResponder(salt = 0): Responder {
  return async (body, ctx) => {
    const seed = (body as { seed?: number }).seed ?? 0;
    const random = seededRandom(hashString(`${salt}|${seed}|${JSON.stringify(body.messages)}`));
    if (ctx.mode === "text") return `Answer ${Math.floor(random() * 1e9)}: it depends on the case.`;
    return redrawAnswer(await fakeScoreResponder(body, ctx), body, random);
  };
}

async function redrawAnswer(
  answer: Awaited<ReturnType<Responder>>,
  body: Parameters<Responder>[0],
  random: () => number,
): Promise<Awaited<ReturnType<Responder>>> {
  const text = typeof answer === "string" ? answer : answer?.content;
  if (typeof text !== "string") return answer;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return answer;
  }
  const score = body.response_format?.json_schema?.schema?.properties?.score;
  const range = { minimum: Number(score?.minimum ?? 0), maximum: Number(score?.maximum ?? NaN) };
  return JSON.stringify(redraw(parsed, random, range));
}
