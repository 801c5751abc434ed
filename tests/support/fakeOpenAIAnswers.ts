import { synthesize, type DecideHook, type JsonSchemaNode } from "./fakeOpenAISchema";

/**
 * What the fake OpenAI server answers: the chat.completion body for a
 * request, from a test's responder or from the request's own JSON schema.
 * Kept apart from the HTTP and fault handling in fakeOpenAIServer.ts.
 */
export type ChatBody = Record<string, any>;
export type AnswerMode = "json_schema" | "json_object" | "tool" | "text";

export type ResponderContext = {
  requestIndex: number;
  path: string;
  /** Azure deployment from the URL, else null. */
  deployment: string | null;
  mode: AnswerMode;
  schema: JsonSchemaNode | null;
  toolName: string | null;
  /** The default synthesised value for the request's schema (null without one). */
  synthesize: () => unknown;
};
export type ResponderResult =
  | string
  | {
      content?: string | null;
      toolCall?: { name?: string; arguments: string | unknown };
      /** Sent as the choice's `logprobs` (e.g. `{ content: [{ token, logprob, top_logprobs }] }`); null by default. */
      logprobs?: unknown;
    }
  | undefined;
export type Responder = (body: ChatBody, ctx: ResponderContext) => ResponderResult | Promise<ResponderResult>;
export type AnswerHooks = {
  /** Custom answers; return undefined to fall back to the default answer. */
  responder?: Responder;
  /** Picks values (enums especially) by schema path; undefined keeps the hash-based default. */
  decide?: DecideHook;
  /** The JSON returned in json_object mode, which carries no schema. Default `{}`. */
  jsonObject?: (body: ChatBody, ctx: ResponderContext) => unknown;
};

export type RequestMeta = { index: number; path: string; deployment: string | null };

/** Faults that still produce a 200 answer, just a bad one. */
export type ContentFault = "invalid_json" | "schema_violation";

export async function buildCompletion(
  body: ChatBody,
  meta: RequestMeta,
  fault: ContentFault | null,
  hooks: AnswerHooks,
): Promise<unknown> {
  const { mode, schema, toolName } = describeRequest(body);
  const seed = answerSeed(body);
  const ctx: ResponderContext = {
    requestIndex: meta.index,
    path: meta.path,
    deployment: meta.deployment,
    mode,
    schema,
    toolName,
    synthesize: () => (schema ? synthesize(schema, seed, hooks.decide) : null),
  };
  let content: string | null = null;
  let toolCall: { name: string; arguments: string } | null = null;
  let logprobs: unknown = null;
  // A queued content fault overrides the responder: the test asked for a bad answer.
  const custom = fault ? undefined : await hooks.responder?.(body, ctx);
  if (typeof custom === "string") content = custom;
  else if (custom) {
    content = custom.content ?? null;
    logprobs = custom.logprobs ?? null;
    if (custom.toolCall) {
      const args = custom.toolCall.arguments;
      toolCall = {
        name: custom.toolCall.name ?? toolName ?? "answer",
        arguments: typeof args === "string" ? args : JSON.stringify(args),
      };
    }
  } else {
    let text: string;
    if (fault === "invalid_json") text = "This is not JSON {";
    else if (mode === "text") text = `Fake answer to: ${lastUserMessage(body).slice(0, 80)}`;
    else {
      const value = mode === "json_object" ? (hooks.jsonObject?.(body, ctx) ?? {}) : ctx.synthesize();
      text = JSON.stringify(fault === "schema_violation" ? dropRequiredField(value, schema) : value);
    }
    if (mode === "tool") toolCall = { name: toolName ?? "answer", arguments: text };
    else content = text;
  }
  // Roughly 4 characters per token, like English text through tiktoken.
  const promptTokens = Math.ceil(promptChars(body) / 4);
  const completionTokens = Math.ceil(((content ?? "").length + (toolCall?.arguments.length ?? 0)) / 4);
  return {
    id: `chatcmpl-fake-${meta.index}`,
    object: "chat.completion",
    created: 1_700_000_000,
    model: body.model ?? meta.deployment ?? "fake-model",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content,
          refusal: null,
          ...(toolCall
            ? { tool_calls: [{ id: `call_fake_${meta.index}`, type: "function", function: toolCall }] }
            : {}),
        },
        finish_reason: toolCall ? "tool_calls" : "stop",
        logprobs,
      },
    ],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
}

export function describeRequest(body: ChatBody): {
  mode: AnswerMode;
  schema: JsonSchemaNode | null;
  toolName: string | null;
} {
  const format = body.response_format;
  if (format?.type === "json_schema")
    return { mode: "json_schema", schema: format.json_schema?.schema ?? {}, toolName: null };
  if (format?.type === "json_object") return { mode: "json_object", schema: null, toolName: null };
  const forced =
    body.tool_choice?.type === "function" ? (body.tool_choice.function?.name as string | undefined) : undefined;
  if (forced) {
    const tool = (body.tools as ChatBody[] | undefined)?.find((candidate) => candidate.function?.name === forced);
    return { mode: "tool", schema: tool?.function?.parameters ?? {}, toolName: forced };
  }
  return { mode: "text", schema: null, toolName: null };
}

/** The question, not the conversation: a repair round asks the same question, so it gets the same verdict. */
function answerSeed(body: ChatBody): string {
  const messages = (body.messages ?? []) as ChatBody[];
  const firstAssistant = messages.findIndex((message) => message.role === "assistant");
  return JSON.stringify(firstAssistant < 0 ? messages : messages.slice(0, firstAssistant));
}

function dropRequiredField(value: unknown, schema: JsonSchemaNode | null): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return { unexpected: true };
  const required = (schema?.required as string[] | undefined) ?? Object.keys(value);
  const copy = { ...(value as Record<string, unknown>) };
  delete copy[required[0] ?? ""];
  return copy;
}

function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content.map((part: ChatBody) => (typeof part?.text === "string" ? part.text : "")).join("");
  return "";
}

function promptChars(body: ChatBody): number {
  return ((body.messages ?? []) as ChatBody[]).reduce((sum, message) => sum + messageText(message.content).length, 0);
}

function lastUserMessage(body: ChatBody): string {
  const users = ((body.messages ?? []) as ChatBody[]).filter((message) => message.role === "user");
  return messageText(users.at(-1)?.content);
}
