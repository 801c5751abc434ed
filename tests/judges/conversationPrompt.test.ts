import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { normalizeRequest } from "@/lib/ingest/normalizeRequest";
import { renderPrompt } from "@/lib/judges/prompts/promptTemplate";
import { relevanceToQuery } from "@/lib/judges/prompts/responseTemplates";
import { chunkRelevanceBatched } from "@/lib/judges/prompts/retrievalTemplates";
import type { AnyTemplate } from "@/lib/judges/prompts/templateForMetric";
import type { JudgeInput } from "@/lib/judges/types";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { fenced, fenceTag } from "../support/fenced";
import { importRows, runToCompletion } from "../support/engineKit";
import { createTempDb } from "../support/tempDb";

const count = (text: string, part: string) => text.split(part).length - 1;

const ENDS_WITH_ASSISTANT = [
  { role: "user", content: "Q1: which plans include SSO?" },
  { role: "assistant", content: "A1: the Business and Enterprise plans." },
  { role: "user", content: "Q2: and what does Business cost?" },
  { role: "assistant", content: "A2: let me check the price list for you." },
];

function inputOf(messages: { role: string; content: string }[]): JudgeInput {
  // As ingest stores a {messages} request: requestText is the last user turn.
  const normalized = normalizeRequest({ messages });
  if ("error" in normalized) throw new Error(normalized.error);
  return {
    messages: normalized.messages,
    request: normalized.text,
    response: "Business is $20 a month.",
    expectedResponse: null,
    expectedFacts: null,
    retrievedContext: [{ content: "Business: $20 per seat.", docUri: "prices" }],
  };
}

describe("how the judge sees a conversation", () => {
  it("shows a conversation that ends with an assistant turn as it is: every turn once, in order, nothing repeated after it", () => {
    for (const template of [relevanceToQuery, chunkRelevanceBatched] as AnyTemplate[]) {
      const prompt = renderPrompt(template, inputOf(ENDS_WITH_ASSISTANT), undefined).messages[1].content;
      for (const turn of ENDS_WITH_ASSISTANT) expect(count(prompt, turn.content)).toBe(1);
      const positions = ENDS_WITH_ASSISTANT.map((turn) => prompt.indexOf(turn.content));
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      expect(prompt).toContain(
        fenced(
          "conversation",
          "user: Q1: which plans include SSO?\n\nassistant: A1: the Business and Enterprise plans.\n\nuser: Q2: and what does Business cost?\n\nassistant: A2: let me check the price list for you.",
        ),
      );
      expect(prompt).not.toContain("<untrusted_request_");
    }
  });

  it("keeps a conversation that ends with a user turn as history plus the request, and a single question as the request", () => {
    const prompt = renderPrompt(relevanceToQuery, inputOf(ENDS_WITH_ASSISTANT.slice(0, 3)), undefined).messages[1]
      .content;
    expect(prompt).toContain(
      `${fenced("conversation_history", "user: Q1: which plans include SSO?\n\nassistant: A1: the Business and Enterprise plans.")}\n\n${fenced("request", "Q2: and what does Business cost?")}`,
    );
    expect(count(prompt, "Q2:")).toBe(1);
    const single = renderPrompt(relevanceToQuery, inputOf(ENDS_WITH_ASSISTANT.slice(0, 1)), undefined).messages[1]
      .content;
    expect(single.startsWith(fenced("request", "Q1: which plans include SSO?"))).toBe(true);
  });

  it("bumps the version of every template whose rendering changed (the cache key includes it)", () => {
    expect(relevanceToQuery.version).toBe("relevance_to_query/v4");
    expect(chunkRelevanceBatched.version).toBe("chunk_relevance.batched/v4");
  });

  describe("through the engine and the fake server", () => {
    let db: Db;
    let cleanup: () => Promise<void>;
    let server: FakeOpenAIServer;
    beforeAll(async () => {
      ({ db, cleanup } = await createTempDb());
      server = await startFakeOpenAIServer({ responder: fakeJudgeResponder });
    });
    afterAll(async () => {
      await server.close();
      await cleanup();
    });

    it("sends an uploaded {messages} request that ends with an assistant turn without repeating the last user turn", async () => {
      const datasetId = await importRows(db, [
        { request_id: "chat", request: { messages: ENDS_WITH_ASSISTANT }, response: "Business is $20 a month." },
      ]);
      const { outcome } = await runToCompletion(
        db,
        {
          datasetId,
          metrics: ["relevance_to_query"],
          judge: { provider: "openai", model: "judge-chat" },
          concurrency: 1,
        },
        server.url,
      );
      expect(outcome.status).toBe("completed");
      expect(server.requests).toHaveLength(1);
      const prompt = server.requests[0].body.messages[1].content as string;
      expect(count(prompt, "Q2: and what does Business cost?")).toBe(1);
      const conversation = fenceTag(
        "conversation",
        ENDS_WITH_ASSISTANT.map((turn) => `${turn.role}: ${turn.content}`).join("\n\n"),
      );
      expect(
        prompt.endsWith(
          `assistant: A2: let me check the price list for you.\n</${conversation}>\n\n${fenced("response", "Business is $20 a month.")}`,
        ),
      ).toBe(true);
    });
  });
});
