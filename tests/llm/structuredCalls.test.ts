import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { LlmCallError } from "@/lib/llm/llmErrors";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "@/tests/support/fakeOpenAIServer";
import { makeClient, openAiConfig, question, verdictSchema } from "./llmTestKit";

// The real openai SDK, through our client, against the fake server:
// the answer path and the one-repair rule.
let server: FakeOpenAIServer;
beforeEach(async () => {
  server = await startFakeOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

describe("callStructured", () => {
  it("sends a strict json_schema response format and returns the validated value with usage", async () => {
    const { client } = makeClient(openAiConfig(server.url));
    const result = await client.callStructured({
      messages: question,
      schema: verdictSchema,
      schemaName: "correctness_verdict",
    });

    expect(verdictSchema.safeParse(result.value).success).toBe(true);
    expect(result.attempts).toBe(1);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);

    const body = server.requests[0].body;
    expect(body.model).toBe("judge-model");
    expect(body.temperature).toBe(0);
    expect(body.response_format.type).toBe("json_schema");
    expect(body.response_format.json_schema.name).toBe("correctness_verdict");
    expect(body.response_format.json_schema.strict).toBe(true);
    expect(body.response_format.json_schema.schema).toMatchObject({
      type: "object",
      required: ["rating", "rationale", "score"],
      additionalProperties: false,
    });
    expect(body.response_format.json_schema.schema.$schema).toBeUndefined();
    expect(server.requests[0].auth).toBe("bearer");
  });

  it("is deterministic: the same question gets the same verdict", async () => {
    const { client } = makeClient(openAiConfig(server.url));
    const first = await client.callStructured({ messages: question, schema: verdictSchema, schemaName: "v" });
    const second = await client.callStructured({ messages: question, schema: verdictSchema, schemaName: "v" });
    expect(second.value).toEqual(first.value);
  });

  it("turns strict off when the schema has optional fields, instead of sending a schema OpenAI would reject", async () => {
    const { client } = makeClient(openAiConfig(server.url));
    const schema = z.object({ rating: z.enum(["yes", "no"]), note: z.string().optional() });
    await client.callStructured({ messages: question, schema, schemaName: "loose" });
    expect(server.requests[0].body.response_format.json_schema.strict).toBe(false);
  });

  it("repairs invalid JSON once: the bad answer and the problem go back to the model", async () => {
    server.enqueue("invalid_json");
    const { client } = makeClient(openAiConfig(server.url));
    const result = await client.callStructured({ messages: question, schema: verdictSchema, schemaName: "v" });

    expect(result.attempts).toBe(2);
    const repair = server.requests[1].body.messages as Array<{ role: string; content: string }>;
    expect(repair).toHaveLength(4);
    expect(repair[2]).toEqual({ role: "assistant", content: "This is not JSON {" });
    expect(repair[3].role).toBe("user");
    expect(repair[3].content).toMatch(/not valid JSON/);
    // Usage is summed over both answers (the fake bills ceil(chars / 4) of the prompt).
    const promptTokens = server.requests.map((r) =>
      Math.ceil(r.body.messages.reduce((n: number, m: { content: string }) => n + m.content.length, 0) / 4),
    );
    expect(result.usage.inputTokens).toBe(promptTokens[0] + promptTokens[1]);
  });

  it("repairs a schema violation", async () => {
    server.enqueue("schema_violation");
    const { client } = makeClient(openAiConfig(server.url));
    const result = await client.callStructured({ messages: question, schema: verdictSchema, schemaName: "v" });
    expect(result.attempts).toBe(2);
    expect(server.requests[1].body.messages[3].content).toMatch(/rating/);
  });

  it("gives up with malformed_output when the repair is malformed too", async () => {
    server.enqueue("invalid_json", "schema_violation");
    const { client } = makeClient(openAiConfig(server.url));
    const error = await client
      .callStructured({ messages: question, schema: verdictSchema, schemaName: "correctness_verdict" })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(LlmCallError);
    const llmError = error as LlmCallError;
    expect(llmError.kind).toBe("malformed_output");
    expect(llmError.attempts).toBe(2);
    expect(llmError.message).toMatch(/correctness_verdict/);
    expect(llmError.message).toMatch(/rating/); // the validation problem, not just "failed"
    expect(llmError.usage.outputTokens).toBeGreaterThan(0);
    expect(llmError.message).not.toMatch(/\n\s+at /);
  });

  it("uses a forced tool call in tool mode", async () => {
    const { client } = makeClient(openAiConfig(server.url, { structuredOutput: "tool" }));
    const result = await client.callStructured({
      messages: question,
      schema: verdictSchema,
      schemaName: "correctness verdict!",
    });

    expect(verdictSchema.safeParse(result.value).success).toBe(true);
    const body = server.requests[0].body;
    expect(body.response_format).toBeUndefined();
    expect(body.tool_choice).toEqual({ type: "function", function: { name: "correctness_verdict_" } });
    expect(body.tools[0].function.parameters.required).toEqual(["rating", "rationale", "score"]);
  });

  it("repairs in tool mode too", async () => {
    server.enqueue("invalid_json");
    const { client } = makeClient(openAiConfig(server.url, { structuredOutput: "tool" }));
    const result = await client.callStructured({ messages: question, schema: verdictSchema, schemaName: "v" });
    expect(result.attempts).toBe(2);
  });

  it("puts the schema in the system prompt in json_object mode", async () => {
    await server.close();
    server = await startFakeOpenAIServer({ jsonObject: () => ({ rating: "no", rationale: "wrong city", score: 0 }) });
    const { client } = makeClient(openAiConfig(server.url, { structuredOutput: "json_object" }));
    const result = await client.callStructured({ messages: question, schema: verdictSchema, schemaName: "v" });

    expect(result.value).toEqual({ rating: "no", rationale: "wrong city", score: 0 });
    const body = server.requests[0].body;
    expect(body.response_format).toEqual({ type: "json_object" });
    expect(body.messages).toHaveLength(2);
    expect(body.messages[0].content).toMatch(/^You are a strict judge\.\n\nRespond with only a JSON object/);
  });

  it("lets a test decide enum values through the fake server's hook", async () => {
    await server.close();
    server = await startFakeOpenAIServer({ decide: ({ path }) => (path === "rating" ? "no" : undefined) });
    const { client } = makeClient(openAiConfig(server.url));
    const result = await client.callStructured({ messages: question, schema: verdictSchema, schemaName: "v" });
    expect(result.value.rating).toBe("no");
  });

  it("validates nested arrays of objects", async () => {
    const schema = z.object({
      chunks: z
        .array(z.object({ position: z.number().int().min(0).max(9), rating: z.enum(["yes", "no"]) }))
        .min(3)
        .max(3),
    });
    const { client } = makeClient(openAiConfig(server.url));
    const result = await client.callStructured({ messages: question, schema, schemaName: "chunks" });
    expect(result.value.chunks).toHaveLength(3);
    const sent = server.requests[0].body.response_format.json_schema.schema;
    // z.number().int() bounds of ±MAX_SAFE_INTEGER are not sent; real ones are.
    expect(JSON.stringify(sent)).not.toContain("9007199254740991");
    expect(sent.properties.chunks.items.properties.position).toMatchObject({ type: "integer", minimum: 0, maximum: 9 });
  });
});

describe("chat", () => {
  it("returns plain text with usage and no response_format", async () => {
    const { client } = makeClient(openAiConfig(server.url));
    const result = await client.chat({
      model: "generator",
      messages: [{ role: "user", content: "What is the capital of France?" }],
    });
    expect(result.text).toBe("Fake answer to: What is the capital of France?");
    expect(result.attempts).toBe(1);
    expect(result.usage).toEqual({ inputTokens: 8, outputTokens: 12 });
    expect(server.requests[0].body.response_format).toBeUndefined();
    expect(server.requests[0].body.model).toBe("generator");
  });

  it("retries like callStructured", async () => {
    server.enqueue("500", "429");
    const { client, waits } = makeClient(openAiConfig(server.url));
    const result = await client.chat({ model: "generator", messages: [{ role: "user", content: "hi" }] });
    expect(result.attempts).toBe(3);
    expect(waits).toHaveLength(2);
  });
});
