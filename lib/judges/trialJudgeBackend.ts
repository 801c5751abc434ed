import { createHash } from "node:crypto";
import type { JudgeCache } from "@/lib/contract/judgeCache";
import type { LlmClient } from "@/lib/llm/types";
import type { JudgeBackend } from "./judgeBackend";

/**
 * Trials: a run that judges each row N times must get N independent judgments, not one answer N times.
 * Trial 1 is an ordinary judgment (the same request and cache entry as a run without trials); trial t ≥ 2
 * is asked with OpenAI's `seed` set to t, so that a deterministic server (temperature 0, a seeded fake)
 * answers each trial anew, and its answers are cached under keys of their own, so that the judge cache
 * never hands trial 2 the answer of trial 1. A re-run of the same trials meets its own trials' answers.
 */
export function judgeByTrial(judgeFor: (trial: number) => JudgeBackend): JudgeBackend {
  const byTrial = new Map<number, JudgeBackend>();
  const first = judgeFor(1);
  byTrial.set(1, first);
  return {
    provider: first.provider,
    model: first.model,
    judge(request) {
      const trial = request.trial ?? 1;
      let backend = byTrial.get(trial);
      if (!backend) {
        backend = judgeFor(trial);
        byTrial.set(trial, backend);
      }
      return backend.judge(request);
    },
  };
}

/** The seed a trial's calls carry: none for trial 1 (the ordinary call), the trial's number after it. */
export function trialSeed(trial: number): number | undefined {
  return trial > 1 ? trial : undefined;
}

/** The client every call of one trial goes through: the same client (and limits), each request with the trial's seed. */
export function llmForTrial(llm: LlmClient, trial: number): LlmClient {
  const seed = trialSeed(trial);
  if (seed === undefined) return llm;
  return {
    provider: llm.provider,
    endpoint: llm.endpoint,
    model: llm.model,
    callStructured: (request) => llm.callStructured({ ...request, seed }),
    chat: (request) => llm.chat({ ...request, seed }),
  };
}

/** The judge cache as one trial sees it: trial t ≥ 2 keeps its answers under keys of its own. */
export function cacheForTrial(cache: JudgeCache, trial: number): JudgeCache {
  if (trial <= 1) return cache;
  const keyOf = (key: string) => createHash("sha256").update(`${key}\u0000trial ${trial}`).digest("hex");
  return {
    get: (key) => cache.get(keyOf(key)),
    put: (entry, options) => cache.put({ ...entry, key: keyOf(entry.key) }, options),
  };
}
