import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "@/tests/support/fakeOpenAIServer";
import { makeClient, openAiConfig, question, verdictSchema } from "./llmTestKit";

// Token log-probabilities through the real openai SDK and our client (G-Eval's weighting reads them).
const answer = JSON.stringify({ rating: "yes", rationale: "ok", score: 1 });
const tokens = [
  { token: '{"', logprob: -0.01, bytes: null, top_logprobs: [{ token: '{"', logprob: -0.01, bytes: null }] },
  {
    token: "yes",
    logprob: Math.log(0.7),
    bytes: null,
    top_logprobs: [
      { token: "yes", logprob: Math.log(0.7), bytes: null },
      { token: "no", logprob: Math.log(0.3), bytes: null },
    ],
  },
];

let server: FakeOpenAIServer;
let withLogprobs = true;
beforeEach(async () => {
  withLogprobs = true;
  server = await startFakeOpenAIServer({
    responder: () => (withLogprobs ? { content: answer, logprobs: { content: tokens, refusal: null } } : answer),
  });
});
afterEach(async () => {
  await server.close();
});

describe("callStructured with topLogprobs", () => {
  it("asks for logprobs and top_logprobs and returns each answer token with its alternatives", async () => {
    const { client } = makeClient(openAiConfig(server.url));
    const result = await client.callStructured({
      messages: question,
      schema: verdictSchema,
      schemaName: "v",
      topLogprobs: 5,
    });
    expect([server.requests[0].body.logprobs, server.requests[0].body.top_logprobs]).toEqual([true, 5]);
    expect(result.logprobs?.[1]).toEqual({
      token: "yes",
      logprob: Math.log(0.7),
      top: [
        { token: "yes", logprob: Math.log(0.7) },
        { token: "no", logprob: Math.log(0.3) },
      ],
    });
  });

  it("returns null when the server sends none, and asks for nothing when not told to", async () => {
    withLogprobs = false;
    const { client } = makeClient(openAiConfig(server.url));
    const asked = await client.callStructured({
      messages: question,
      schema: verdictSchema,
      schemaName: "v",
      topLogprobs: 5,
    });
    expect(asked.logprobs).toBeNull();
    const plain = await client.callStructured({ messages: question, schema: verdictSchema, schemaName: "v" });
    expect(plain.logprobs).toBeUndefined();
    expect("logprobs" in server.requests[1].body || "top_logprobs" in server.requests[1].body).toBe(false);
  });
});
