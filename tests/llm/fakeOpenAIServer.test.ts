import { afterEach, describe, expect, it } from "vitest";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "@/tests/support/fakeOpenAIServer";
import { synthesize } from "@/tests/support/fakeOpenAISchema";

// The fake itself: other suites (engine, judges) rely on its determinism.
let server: FakeOpenAIServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function post(path: string, body: unknown) {
  const response = await fetch(`${server!.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, json: (await response.json()) as Record<string, any> };
}

const schema = {
  type: "object",
  properties: {
    verdict: { type: "string", enum: ["yes", "no", "partial"] },
    score: { type: "number", minimum: 0, maximum: 1 },
    count: { type: "integer", minimum: 3, maximum: 5 },
    name: { type: ["string", "null"], minLength: 40 },
    items: {
      type: "array",
      minItems: 4,
      maxItems: 6,
      items: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"], additionalProperties: false },
    },
    one: { type: "array", maxItems: 1, items: { $ref: "#/definitions/leaf" } },
  },
  required: ["verdict", "score", "count", "name", "items", "one"],
  additionalProperties: false,
  definitions: { leaf: { type: "string", maxLength: 5 } },
};

describe("synthesize", () => {
  it("fits the schema and is stable for a seed", () => {
    const value = synthesize(schema, "seed") as Record<string, any>;
    expect(["yes", "no", "partial"]).toContain(value.verdict);
    expect(value.score).toBeGreaterThan(0);
    expect(value.score).toBeLessThan(1);
    expect(value.count).toBeGreaterThanOrEqual(3);
    expect(value.count).toBeLessThanOrEqual(5);
    expect(value.name.length).toBeGreaterThanOrEqual(40);
    expect(value.items).toHaveLength(4);
    expect(value.items[0]).toEqual({ ok: expect.any(Boolean) });
    expect(value.one).toHaveLength(1);
    expect(value.one[0].length).toBeLessThanOrEqual(5);
    expect(Object.keys(value).sort()).toEqual(Object.keys(schema.properties).sort());
    expect(synthesize(schema, "seed")).toEqual(value);
  });

  it("spreads enum choices across seeds and obeys the decide hook", () => {
    const seen = new Set(
      Array.from({ length: 30 }, (_, i) => (synthesize(schema, `s${i}`) as { verdict: string }).verdict),
    );
    expect(seen.size).toBe(3);
    const forced = synthesize(schema, "x", ({ path, options }) => (path === "verdict" ? options?.[2] : undefined)) as {
      verdict: string;
    };
    expect(forced.verdict).toBe("partial");
  });
});

describe("startFakeOpenAIServer", () => {
  it("listens on 127.0.0.1 only", async () => {
    server = await startFakeOpenAIServer();
    expect(new URL(server.url).hostname).toBe("127.0.0.1");
    expect(server.url).toMatch(/\/v1$/);
  });

  it("answers both OpenAI paths and 404s the rest", async () => {
    server = await startFakeOpenAIServer();
    const body = { model: "m", messages: [{ role: "user", content: "abcdefgh" }] };
    const a = await post("/v1/chat/completions", body);
    const b = await post("/chat/completions", body);
    expect(a.json.choices[0].message.content).toBe("Fake answer to: abcdefgh");
    expect(a.json.usage).toEqual({ prompt_tokens: 2, completion_tokens: 6, total_tokens: 8 });
    expect(b.status).toBe(200);
    expect((await post("/v1/embeddings", body)).status).toBe(404);
    expect(server.stats.totalRequests).toBe(2);
  });

  it("requires api-version on Azure paths", async () => {
    server = await startFakeOpenAIServer();
    const missing = await post("/openai/deployments/d1/chat/completions", { messages: [] });
    expect(missing.status).toBe(400);
    const ok = await post("/openai/deployments/d1/chat/completions?api-version=2024-10-21", { messages: [] });
    expect(ok.status).toBe(200);
    expect(ok.json.model).toBe("d1");
  });

  it("sends Retry-After with 429s and counts outcomes", async () => {
    server = await startFakeOpenAIServer({ behaviour: { retryAfterSeconds: 4 } });
    server.enqueue("429", { kind: "500" });
    const first = await post("/v1/chat/completions", { messages: [] });
    expect(first.status).toBe(429);
    expect(first.headers.get("retry-after")).toBe("4");
    expect((await post("/v1/chat/completions", { messages: [] })).status).toBe(500);
    expect((await post("/v1/chat/completions", { messages: [] })).status).toBe(200);
    expect(server.stats.outcomes).toMatchObject({ "429": 1, "500": 1, ok: 1 });
    expect(server.requests.map((r) => r.outcome)).toEqual(["429", "500", "ok"]);
  });

  it("holds a timeout request until close(), which still finishes", async () => {
    server = await startFakeOpenAIServer();
    server.enqueue("timeout");
    const pending = fetch(`${server.url}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ messages: [] }),
    }).catch((e: unknown) => e);
    await expect.poll(() => server!.stats.inFlight).toBe(1);
    await server.close();
    server = null;
    expect(await pending).toBeInstanceOf(Error);
  });

  it("drops a required field on schema_violation", async () => {
    server = await startFakeOpenAIServer();
    server.enqueue("schema_violation");
    const response = await post("/v1/chat/completions", {
      messages: [],
      response_format: { type: "json_schema", json_schema: { name: "s", schema } },
    });
    const value = JSON.parse(response.json.choices[0].message.content);
    expect(value.verdict).toBeUndefined();
    expect(value.score).toBeDefined();
  });

  it("uses a custom responder, including tool calls", async () => {
    server = await startFakeOpenAIServer({
      responder: (_body, ctx) => (ctx.mode === "tool" ? { toolCall: { arguments: { forced: true } } } : undefined),
    });
    const body = {
      messages: [],
      tools: [{ type: "function", function: { name: "record", parameters: schema } }],
      tool_choice: { type: "function", function: { name: "record" } },
    };
    const response = await post("/v1/chat/completions", body);
    expect(response.json.choices[0].finish_reason).toBe("tool_calls");
    expect(response.json.choices[0].message.tool_calls[0].function).toEqual({
      name: "record",
      arguments: '{"forced":true}',
    });
  });
});
