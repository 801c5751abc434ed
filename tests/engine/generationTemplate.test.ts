import { describe, expect, it } from "vitest";
import { messagesOnlyTemplate, ragAnswerTemplate, renderAnswerPrompt } from "@/lib/engine/generation/answerTemplates";
import { fenced } from "../support/fenced";

const messages = [{ role: "user", content: "How long are deleted objects kept?" }];

describe("the answer templates a generating run sends", () => {
  it("leaves out a retrieved chunk without content, keeping the other chunks' ranks", () => {
    const prompt = renderAnswerPrompt({
      systemPrompt: null,
      messages,
      retrievedContext: [
        { content: "  ", docUri: "a" },
        { content: null, docUri: "b" },
        { content: "Kept 30 days.", docUri: "c" },
      ],
    });
    expect(prompt.template.version).toBe("rag_answer/v2");
    expect(prompt.messages[0].content).toContain(fenced("chunk", "Kept 30 days.", ' rank="3" doc_uri="c"'));
    expect(prompt.messages[0].content).not.toMatch(/doc_uri="[ab]"/);
  });

  it("uses the messages alone when no retrieved chunk has content", () => {
    const prompt = renderAnswerPrompt({
      systemPrompt: null,
      messages,
      retrievedContext: [{ content: null, docUri: "a" }],
    });
    expect(prompt.template).toBe(messagesOnlyTemplate);
    expect(prompt.messages).toEqual(messages);
  });

  it("keeps the run's system prompt first and verbatim, the retrieved context in a system message of its own", () => {
    const prompt = renderAnswerPrompt({
      systemPrompt: "Be brief.",
      messages,
      retrievedContext: [{ content: "Kept 30 days.", docUri: "c" }],
    });
    expect(prompt.messages.map((m) => m.role)).toEqual(["system", "system", "user"]);
    expect(prompt.messages[0]).toEqual({ role: "system", content: "Be brief." });
    expect(renderAnswerPrompt({ systemPrompt: "Be brief.", messages, retrievedContext: [] }).messages).toEqual([
      { role: "system", content: "Be brief." },
      ...messages,
    ]);
  });

  it("hashes the exact prompt: any change to a chunk, its doc_uri or a turn changes the hash; the same input gives the same hash", () => {
    const base = { systemPrompt: null, messages, retrievedContext: [{ content: "Kept 30 days.", docUri: "c" }] };
    const hash = renderAnswerPrompt(base).promptHash;
    expect(renderAnswerPrompt(base).promptHash).toBe(hash);
    expect(
      renderAnswerPrompt({ ...base, retrievedContext: [{ content: "Kept 31 days.", docUri: "c" }] }).promptHash,
    ).not.toBe(hash);
    expect(
      renderAnswerPrompt({ ...base, retrievedContext: [{ content: "Kept 30 days.", docUri: "d" }] }).promptHash,
    ).not.toBe(hash);
    expect(renderAnswerPrompt({ ...base, messages: [{ role: "user", content: "How long?" }] }).promptHash).not.toBe(
      hash,
    );
  });

  it("gives each template its own hash, taken over its version and text", () => {
    expect(ragAnswerTemplate.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(messagesOnlyTemplate.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(ragAnswerTemplate.hash).not.toBe(messagesOnlyTemplate.hash);
    expect(ragAnswerTemplate.text).toContain("Base your answer on these passages");
  });
});
