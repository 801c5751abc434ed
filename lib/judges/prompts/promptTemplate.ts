import { createHash } from "node:crypto";
import type { z } from "zod";
import type { ChatTurn } from "@/lib/llm/types";
import type { JudgeVerdict } from "@/lib/contract/judgeResult";
import type { JudgeInput } from "../types";
import type { BinaryAnswer } from "./outputSchemas";

/**
 * A judge prompt as versioned data: the template, the schema its answer is
 * forced into, and the map from that answer to a verdict, together. Bump the
 * version whenever any of the three changes; every stored result names the
 * version and the hash of the exact rendered prompt.
 */
export type PromptTemplate<TOutput, TContext = undefined> = TemplateFields<TOutput, TContext> &
  ({ perChunk?: undefined; singleChunk?: undefined } | PerChunk) &
  (OneCall<TOutput, TContext> | TwoCalls<TOutput>);

/** One call's prompt and answer schema, without a verdict: a step of a judge that makes several calls. */
export type PromptCall<TOutput, TContext> = TemplateFields<TOutput, TContext>;

type TemplateFields<TOutput, TContext> = {
  /** e.g. "correctness.expected_response/v1"; part of the judge-cache key, so it never changes for a given prompt. */
  version: string;
  schemaName: string;
  /** Built per call because some schemas depend on the input (one verdict per chunk, per fact). */
  schema: (input: JudgeInput, context: TContext) => z.ZodType<TOutput>;
  /** A function of the context when the run's settings change the instructions (DeepEval's list cap, include_reason). */
  system: string | ((context: TContext) => string);
  render: (input: JudgeInput, context: TContext) => string;
};

/** Most judges: one call, whose answer is the verdict. */
type OneCall<TOutput, TContext> = {
  toVerdict: (output: TOutput, input: JudgeInput, context: TContext) => JudgeVerdict;
  followUp?: undefined;
};

/**
 * A judge whose definition needs a second call that must not see everything
 * the first saw (summarization: the coverage questions are answered from the
 * summary alone, while the first call reads the source). The first answer and
 * the run's settings are the follow-up's context, and the follow-up's verdict is the row's. Each call
 * is cached, limited and retried on its own; a failed second call is an error
 * verdict like a failed first one.
 */
type TwoCalls<TOutput> = {
  toVerdict?: undefined;
  // The follow-up's own answer type is its business; it is typed where it is defined.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  followUp: PromptTemplate<any, FollowUpContext<TOutput>>;
};

/** What a follow-up call is given: the first call's answer, and the run's settings the first call had. */
export type FollowUpContext<TFirst> = { first: TFirst; settings: unknown };

/**
 * A per-chunk judge (chunk relevance, custom RETRIEVAL judges) answers with one
 * verdict per retrieved chunk, and says so: an error covers every chunk, and
 * `singleChunk` is its one-chunk-per-call prompt (rendered with context
 * { position }) for per_chunk runs and for a row whose batched answer stays malformed.
 */
type PerChunk = { perChunk: true; singleChunk: PromptTemplate<BinaryAnswer, { position: number }> };

export type PerChunkTemplate<TOutput, TContext = undefined> = TemplateFields<TOutput, TContext> &
  PerChunk &
  OneCall<TOutput, TContext>;

export type RenderedPrompt = { messages: ChatTurn[]; hash: string };

export function renderPrompt<T, C>(template: PromptCall<T, C>, input: JudgeInput, context: C): RenderedPrompt {
  const messages: ChatTurn[] = [
    { role: "system", content: systemText(template, context) },
    { role: "user", content: template.render(input, context) },
  ];
  const hash = createHash("sha256")
    .update(template.version)
    .update("\u0000")
    .update(JSON.stringify(messages))
    .digest("hex");
  return { messages, hash };
}

export function systemText<T, C>(template: PromptCall<T, C>, context: C): string {
  return typeof template.system === "function" ? template.system(context) : template.system;
}

// Templates differ in output type; the engine treats them uniformly through toVerdict.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTemplate = PromptTemplate<any, any>;
