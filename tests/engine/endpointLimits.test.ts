import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { createRun } from "@/lib/engine/createRun";
import { createEngineDeps } from "@/lib/engine/engineDeps";
import { BUILT_IN_METRICS } from "@/lib/engine/runConfig";
import { runEvaluation } from "@/lib/engine/runEvaluation";
import { binaryAnswerSchema, MAX_RATIONALE_CHARS } from "@/lib/judges/prompts/outputSchemas";
import { fakeLlmConfig, importRows, readRun } from "../support/engineKit";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb } from "../support/tempDb";

describe("what one endpoint is asked for: token caps, a shared in-flight limit, its own cache entries", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let datasetId: string;
  const servers: FakeOpenAIServer[] = [];
  const startServer = async (latencyMs = 0) => {
    const server = await startFakeOpenAIServer({ responder: fakeJudgeResponder, behaviour: { latencyMs } });
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    ({ db, cleanup } = await createTempDb());
    datasetId = await importRows(db, syntheticRows(12, 2));
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await cleanup();
  });

  async function startRun(serverUrl: string, model: string, concurrency: number, env: Record<string, string> = {}) {
    const runId = await createRun(db, {
      datasetId,
      metrics: BUILT_IN_METRICS,
      judge: { provider: "openai", model },
      concurrency,
      generation: { model: "generator-model" },
    });
    const run = await readRun(db, runId);
    const deps = createEngineDeps(db, run, { llmConfig: fakeLlmConfig(serverUrl, env) });
    return { runId, deps, done: runEvaluation(run, deps) };
  }

  it("every request carries max_tokens, and rationales are capped in the answer schema", async () => {
    const server = await startServer();
    const { done } = await startRun(server.url, "judge-caps", 4, { ASSAY_LLM_MAX_TOKENS: "700" });
    expect((await done).status).toBe("completed");
    const judged = server.requests.filter((r) => r.body.response_format);
    const generated = server.requests.filter((r) => !r.body.response_format);
    expect(judged.length).toBeGreaterThan(0);
    expect(generated.length).toBe(12);
    expect(judged.every((r) => r.body.max_tokens === 700)).toBe(true);
    expect(generated.every((r) => typeof r.body.max_tokens === "number" && r.body.max_tokens > 0)).toBe(true);
    // String lengths are outside OpenAI's strict subset (Azure refuses the request over them): never on the wire.
    const schemas = judged.map((r) => JSON.stringify(r.body.response_format));
    expect(schemas.some((schema) => /"(min|max)Length"/.test(schema))).toBe(false);
    expect(judged.every((r) => r.body.response_format?.json_schema?.strict === true)).toBe(true);
  });

  it("caps a rationale by truncating it when the answer is parsed, not by refusing the verdict", () => {
    const long = "because ".repeat(1000);
    const parsed = binaryAnswerSchema.parse({ rationale: long, rating: "yes" });
    expect(parsed.rating).toBe("yes");
    expect(parsed.rationale.length).toBe(MAX_RATIONALE_CHARS);
    expect(parsed.rationale.endsWith("…")).toBe(true);
    expect(binaryAnswerSchema.parse({ rationale: "short", rating: "no" }).rationale).toBe("short");
  });

  it("two runs at once share the endpoint's limit (4), each within its own (3)", async () => {
    const server = await startServer(40);
    const env = { ASSAY_LLM_MAX_IN_FLIGHT: "4" };
    const first = await startRun(server.url, "judge-shared-a", 3, env);
    const second = await startRun(server.url, "judge-shared-b", 3, env);
    const outcomes = await Promise.all([first.done, second.done]);
    expect(outcomes.map((o) => o.status)).toEqual(["completed", "completed"]);
    expect(server.stats.maxInFlight).toBeLessThanOrEqual(4);
    expect(server.stats.maxInFlight).toBe(4); // the shared budget was used to the full, not halved
    for (const { deps } of [first, second]) {
      expect(deps.limiter?.maxObserved).toBeGreaterThan(0);
      expect(deps.limiter?.maxObserved).toBeLessThanOrEqual(3);
    }
  });

  it("the same model name on two endpoints never shares cached verdicts", async () => {
    const a = await startServer();
    const b = await startServer();
    const onA = await startRun(a.url, "same-name", 4);
    expect((await onA.done).status).toBe("completed");
    const onB = await startRun(b.url, "same-name", 4);
    expect((await onB.done).status).toBe("completed");
    expect(await db.judgmentItem.count({ where: { runId: onB.runId, cacheHit: true } })).toBe(0);
    expect(b.requests.filter((r) => r.body.response_format).length).toBe(
      a.requests.filter((r) => r.body.response_format).length,
    );
    // The same endpoint again does reuse them.
    const againOnA = await startRun(a.url, "same-name", 4);
    const before = a.requests.filter((r) => r.body.response_format).length;
    expect((await againOnA.done).status).toBe("completed");
    expect(a.requests.filter((r) => r.body.response_format).length).toBe(before);
  });
});
