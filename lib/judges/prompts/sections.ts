import type { JudgeInput } from "../types";
import { fence } from "./fence";

/** Shared, fenced renderings of a row's parts, so every judge shows the model the same shapes. */
export function conversationSection(input: JudgeInput): string {
  if (input.messages.length <= 1) return fence("request", input.request);
  const history = input.messages.slice(0, -1).map((m) => `${m.role}: ${m.content}`).join("\n\n");
  return `${fence("conversation_history", history)}\n\n${fence("request", input.request)}`;
}

export function responseSection(input: JudgeInput): string {
  return fence("response", input.response ?? "");
}

export function chunksSection(input: JudgeInput): string {
  return input.retrievedContext
    .map((chunk, index) => fence("chunk", chunk.content ?? "", { index: index + 1, doc_uri: chunk.docUri }))
    .join("\n\n");
}

export function groundTruthSection(input: JudgeInput): string {
  if (input.expectedFacts) return factsSection(input.expectedFacts);
  return fence("expected_response", input.expectedResponse ?? "");
}

export function factsSection(facts: string[]): string {
  return facts.map((fact, index) => fence("expected_fact", fact, { index: index + 1 })).join("\n");
}

export const BINARY_ANSWER_RULE = 'Think first, then decide. Answer with JSON only: {"rationale": "<one short paragraph>", "rating": "yes" | "no"}.';
