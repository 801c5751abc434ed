import { createHash } from "node:crypto";
import type { z } from "zod";
import type { ChatTurn } from "@/lib/llm/types";
import type { JudgeInput, JudgeVerdict } from "../types";

/**
 * A judge prompt as versioned data: the template, the schema its answer is
 * forced into, and the map from that answer to a verdict, together. Bump the
 * version whenever any of the three changes; every stored result names the
 * version and the hash of the exact rendered prompt.
 */
export type PromptTemplate<TOutput, TContext = undefined> = {
  /** e.g. "correctness.expected_response/v1" */
  version: string;
  schemaName: string;
  /** Built per call because some schemas depend on the input (one verdict per chunk, per fact). */
  schema: (input: JudgeInput, context: TContext) => z.ZodType<TOutput>;
  system: string;
  render: (input: JudgeInput, context: TContext) => string;
  toVerdict: (output: TOutput, input: JudgeInput, context: TContext) => JudgeVerdict;
};

export type RenderedPrompt = { messages: ChatTurn[]; hash: string };

export function renderPrompt<T, C>(template: PromptTemplate<T, C>, input: JudgeInput, context: C): RenderedPrompt {
  const messages: ChatTurn[] = [
    { role: "system", content: template.system },
    { role: "user", content: template.render(input, context) },
  ];
  const hash = createHash("sha256").update(template.version).update("\u0000").update(JSON.stringify(messages)).digest("hex");
  return { messages, hash };
}
