import type { JudgeInput } from "../types";
import { fence } from "./fence";

/**
 * Shared, fenced renderings of a row's parts, so every judge shows the model the same shapes.
 *
 * The request as the application received it, every turn once and in order.
 * A conversation that ends with a user turn is its history plus that turn as
 * the request. One that ends with an assistant (or tool) turn is shown whole,
 * as it is: the last user turn is not repeated after it as "the request",
 * which would reorder the conversation and hide the turn the response follows.
 */
export function conversationSection(input: JudgeInput): string {
  const last = input.messages.at(-1);
  if (!last || (input.messages.length === 1 && last.role === "user")) return fence("request", input.request);
  if (last.role !== "user") return fence("conversation", renderTurns(input.messages));
  return `${fence("conversation_history", renderTurns(input.messages.slice(0, -1)))}\n\n${fence("request", last.content)}`;
}

function renderTurns(messages: JudgeInput["messages"]): string {
  return messages.map((m) => `${m.role}: ${m.content}`).join("\n\n");
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

export const BINARY_ANSWER_RULE =
  'Think first, then decide. Answer with JSON only: {"rationale": "<one short paragraph>", "rating": "yes" | "no"}.';
