import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLimiter } from "@/lib/llm/concurrencyLimiter";
import { LlmCallError } from "@/lib/llm/llmErrors";
import { createOpenAiLlmClient } from "@/lib/llm/openaiClient";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "@/tests/support/fakeOpenAIServer";
import { recordTimers } from "@/tests/support/timerLog";
import { FAKE_KEY, makeClient, openAiConfig, question, verdictSchema } from "./llmTestKit";

// Retries, timeouts, auth failures, concurrency and Azure routing, with the
// real openai SDK (maxRetries 0) under our own retry loop.
let server: FakeOpenAIServer;
beforeEach(async () => {
  server = await startFakeOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

const ask = { messages: question, schema: verdictSchema, schemaName: "v" };

async function failure(promise: Promise<unknown>): Promise<LlmCallError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(LlmCallError);
  return error as LlmCallError;
}

describe("retries", () => {
  it("honours Retry-After on a 429", async () => {
    server.setBehaviour({ retryAfterSeconds: 7 });
    server.enqueue("429");
    const { client, waits } = makeClient(openAiConfig(server.url));
    const result = await client.callStructured(ask);
    expect(result.attempts).toBe(2);
    expect(waits).toEqual([7_000]);
  });

  it("prefers retry-after-ms, and caps what a server may ask for at 60 s", async () => {
    server.setBehaviour({ retryAfterSeconds: 3600, retryAfterMs: 250 });
    server.enqueue("429");
    const first = makeClient(openAiConfig(server.url));
    await first.client.callStructured(ask);
    expect(first.waits).toEqual([250]);

    server.setBehaviour({ retryAfterMs: null });
    server.enqueue("429");
    const second = makeClient(openAiConfig(server.url));
    await second.client.callStructured(ask);
    expect(second.waits).toEqual([60_000]);
  });

  it("waits for real when no sleep is injected", async () => {
    server.setBehaviour({ retryAfterSeconds: null, retryAfterMs: 120 });
    server.enqueue("429");
    const { client } = makeClient(openAiConfig(server.url), { realSleep: true });
    const timers = recordTimers(() => server.stats.totalRequests);
    try {
      await client.callStructured(ask);
    } finally {
      timers.restore();
    }
    // The retry went out only once a real 120 ms timer had fired, with the first request the only one sent.
    expect(timers.fired().filter(({ ms }) => ms === 120)).toEqual([{ ms: 120, seen: 1 }]);
    expect(server.stats.totalRequests).toBe(2);
  });

  it("retries a 500 with jittered exponential backoff", async () => {
    server.enqueue("500", "500", "500");
    const { client, waits } = makeClient(openAiConfig(server.url));
    const result = await client.callStructured(ask);
    expect(result.attempts).toBe(4);
    // random() pinned at 0.5: half of 500, 1000, 2000 ms.
    expect(waits).toEqual([250, 500, 1000]);
  });

  it("retries after a client-side timeout", async () => {
    server.enqueue("timeout");
    const { client } = makeClient(openAiConfig(server.url, { timeoutMs: 300 }));
    const timers = recordTimers(() => server.stats.totalRequests);
    let result;
    try {
      result = await client.callStructured(ask);
    } finally {
      timers.restore();
    }
    expect(result.attempts).toBe(2);
    // The first request was given up when its 300 ms timeout fired, and not before: the retry came after it.
    expect(timers.fired().filter(({ ms }) => ms === 300)).toEqual([{ ms: 300, seen: 1 }]);
    expect(server.stats.outcomes.timeout).toBe(1);
    // The abandoned request no longer counts as in flight on the server.
    await vi.waitFor(() => expect(server.stats.inFlight).toBe(0), { timeout: 10_000 });
  });

  it("stops with retries_exhausted after exactly maxAttempts", async () => {
    server.enqueue("429", "500", "429", "500", "429", "500");
    const { client, waits } = makeClient(openAiConfig(server.url, { maxAttempts: 3 }));
    const error = await failure(client.callStructured(ask));
    expect(error.kind).toBe("retries_exhausted");
    expect(error.attempts).toBe(3);
    expect(error.status).toBe(429);
    expect(error.message).toBe("judge call failed after 3 attempts: 429 Too Many Requests");
    expect(server.stats.totalRequests).toBe(3);
    expect(waits).toHaveLength(2);
  });

  it("reports timeouts in the exhausted message", async () => {
    server.enqueue("timeout", "timeout");
    const { client } = makeClient(openAiConfig(server.url, { timeoutMs: 150, maxAttempts: 2 }));
    const error = await failure(client.chat({ model: "m", messages: [{ role: "user", content: "hi" }] }));
    expect(error.kind).toBe("retries_exhausted");
    expect(error.message).toBe("generation call failed after 2 attempts: request timed out");
  });

  it("fails fast on a 400 and quotes the server's reason", async () => {
    server.enqueue("400");
    const { client } = makeClient(openAiConfig(server.url));
    const error = await failure(client.callStructured(ask));
    expect(error.kind).toBe("fatal");
    expect(error.attempts).toBe(1);
    expect(error.message).toBe(
      "judge call failed: the judge endpoint rejected the request (400 Bad Request): Invalid request (fake)",
    );
  });

  it("drops temperature for models that reject it, and remembers that per model", async () => {
    server.enqueue({
      kind: "400",
      message:
        "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
    });
    const { client, waits } = makeClient(openAiConfig(server.url, { model: "o4-mini" }));
    const result = await client.callStructured(ask);
    expect(result.attempts).toBe(2);
    expect(waits).toEqual([]);
    await client.callStructured(ask);
    expect(server.requests.map((r) => r.body.temperature)).toEqual([0, undefined, undefined]);
    await client.callStructured({ ...ask, model: "gpt-4.1" });
    expect(server.requests[3].body.temperature).toBe(0);
  });

  it("fails fast on a 401 without leaking the key anywhere", async () => {
    await server.close();
    server = await startFakeOpenAIServer({ apiKey: "the-right-key" });
    const output: string[] = [];
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        output.push(args.map(String).join(" "));
      }),
    );
    try {
      const { client } = makeClient(openAiConfig(server.url));
      const error = await failure(client.callStructured(ask));
      expect(error.kind).toBe("fatal");
      expect(error.attempts).toBe(1);
      expect(error.status).toBe(401);
      expect(error.message).toBe("judge call failed: the judge endpoint rejected the API key (401)");
      // The fake server echoes the presented key in its 401 body, as real servers partly do.
      expect(server.stats.outcomes["401"]).toBe(1);
      const everything = [error.message, String(error), JSON.stringify(error), error.stack ?? "", ...output].join("\n");
      expect(everything).not.toContain(FAKE_KEY);
      expect(everything).not.toContain("9f8e7d6c5b4a3210");
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it("reports a cancelled call as aborted, also while waiting out a backoff", async () => {
    server.enqueue("429");
    const controller = new AbortController();
    const limiter = createLimiter(2);
    const client = createOpenAiLlmClient({
      config: openAiConfig(server.url),
      limiter,
      sleep: async () => {
        controller.abort();
      },
    });
    const error = await failure(client.callStructured({ ...ask, signal: controller.signal }));
    expect(error.kind).toBe("aborted");
    expect(error.attempts).toBe(1);
    expect(limiter.inFlight).toBe(0);
  });
});

describe("concurrency", () => {
  it("never has more than the limiter's budget in flight at the server, and uses it", async () => {
    server.setBehaviour({ latencyMs: 15 });
    const { client, limiter } = makeClient(openAiConfig(server.url), { maxConcurrency: 4 });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        client.callStructured({ ...ask, messages: [{ role: "user", content: `question ${i}` }] }),
      ),
    );
    expect(results).toHaveLength(50);
    expect(server.stats.totalRequests).toBe(50);
    expect(server.stats.maxInFlight).toBeLessThanOrEqual(4);
    expect(server.stats.maxInFlight).toBeGreaterThanOrEqual(3);
    expect(limiter.maxObserved).toBe(4);
    expect(limiter.inFlight).toBe(0);
  });

  it("frees the slot during a backoff so other calls proceed", async () => {
    server.enqueue("429");
    const limiter = createLimiter(1);
    let finishBackoff: () => void = () => {};
    let otherDone = false;
    const client = createOpenAiLlmClient({
      config: openAiConfig(server.url),
      limiter,
      sleep: () => new Promise<void>((resolve) => (finishBackoff = resolve)),
    });
    const slow = client.callStructured(ask);
    await vi.waitFor(() => expect(server.stats.outcomes["429"]).toBe(1), { timeout: 10_000 });
    // While the first call sleeps, a second one gets the only slot and completes.
    await client
      .callStructured({ ...ask, messages: [{ role: "user", content: "other" }] })
      .then(() => (otherDone = true));
    expect(otherDone).toBe(true);
    finishBackoff();
    expect((await slow).attempts).toBe(2);
  });

  it("survives seeded random faults deterministically", async () => {
    const run = async () => {
      const fake = await startFakeOpenAIServer({
        behaviour: { seed: 42, faultRate: { status429: 0.2, status500: 0.1, invalidJson: 0.1 } },
      });
      try {
        const { client } = makeClient(openAiConfig(fake.url, { maxAttempts: 8 }), { maxConcurrency: 1 });
        for (let i = 0; i < 20; i++)
          await client.callStructured({ ...ask, messages: [{ role: "user", content: `q${i}` }] });
        return { ...fake.stats.outcomes, total: fake.stats.totalRequests };
      } finally {
        await fake.close();
      }
    };
    const first = await run();
    expect(first.total).toBeGreaterThan(20);
    expect(await run()).toEqual(first);
  });
});

describe("Azure", () => {
  it("routes through AzureOpenAI: deployment path, api-version, api-key header", async () => {
    const config = {
      ...openAiConfig(server.url),
      endpoint: { kind: "azure" as const, endpoint: server.origin, apiVersion: "2024-10-21" },
      model: "my-judge-deployment",
    };
    const { client } = makeClient(config);
    expect(client.provider).toBe("azure");
    const result = await client.callStructured(ask);
    expect(verdictSchema.safeParse(result.value).success).toBe(true);

    const logged = server.requests[0];
    expect(logged.path).toBe("/openai/deployments/my-judge-deployment/chat/completions");
    expect(logged.deployment).toBe("my-judge-deployment");
    expect(logged.apiVersion).toBe("2024-10-21");
    expect(logged.auth).toBe("api-key");

    // The per-request model picks another deployment, e.g. for generation.
    await client.chat({ model: "generator-deployment", messages: [{ role: "user", content: "hi" }] });
    expect(server.requests[1].deployment).toBe("generator-deployment");
  });
});
