import { z } from "zod";
import { describePlace } from "./errors";
import type { ChatMessage, RequestFormat } from "@/lib/contract/normalizedRow";

const contentPartSchema = z.object({ type: z.string(), text: z.string().optional() });
const messageSchema = z.object({
  role: z.string().min(1, "a message needs a role"),
  // OpenAI allows null content (an assistant's tool calls) and arrays of content parts.
  content: z.union([z.string(), z.null(), z.array(contentPartSchema)]).optional(),
  tool_calls: z.array(z.unknown()).optional(),
});
const messagesRequestSchema = z.object({ messages: z.array(messageSchema).min(1, "messages is empty") });
const splitRequestSchema = z.object({
  query: z.string().min(1, "query is empty"),
  history: z.array(messageSchema).optional(),
});

export type NormalizedRequest = { format: RequestFormat; messages: ChatMessage[]; text: string };

/**
 * The Agent Evaluation input schema accepts three request shapes: a plain string, an OpenAI chat
 * `{messages}`, or `{query, history}`. All three become a messages list; the
 * original is kept elsewhere. Returns an error sentence on failure.
 */
export function normalizeRequest(request: unknown): NormalizedRequest | { error: string } {
  if (typeof request === "string") {
    if (request.trim() === "") return { error: "the request is empty" };
    return { format: "string", messages: [{ role: "user", content: request }], text: request };
  }
  if (request === null || typeof request !== "object" || Array.isArray(request)) {
    return {
      error: `expected a string, {"messages": [...]} or {"query": ..., "history": [...]}, got ${describeType(request)}`,
    };
  }
  if ("messages" in request) {
    const parsed = messagesRequestSchema.safeParse(request);
    if (!parsed.success) return { error: `invalid chat request: ${firstIssue(parsed.error)}` };
    const empty = firstEmptyMessage(parsed.data.messages, "message");
    if (empty) return { error: `invalid chat request: ${empty}` };
    const messages = parsed.data.messages.map(toChatMessage);
    return { format: "messages", messages, text: lastUserText(messages) };
  }
  if ("query" in request) {
    const parsed = splitRequestSchema.safeParse(request);
    if (!parsed.success) return { error: `invalid {query, history} request: ${firstIssue(parsed.error)}` };
    const empty = firstEmptyMessage(parsed.data.history ?? [], "history message");
    if (empty) return { error: `invalid {query, history} request: ${empty}` };
    const history = (parsed.data.history ?? []).map(toChatMessage);
    const messages = [...history, { role: "user", content: parsed.data.query }];
    return { format: "query_history", messages, text: parsed.data.query };
  }
  return { error: 'an object request needs "messages" (OpenAI chat) or "query" (with optional "history")' };
}

/**
 * A message with no text would reach the judges as an empty turn, so it is a
 * row issue, numbered from 1 as people count. The one exception is OpenAI's
 * assistant message that only calls tools (null content with tool_calls).
 */
function firstEmptyMessage(messages: z.infer<typeof messageSchema>[], label: string): string | null {
  for (const [index, message] of messages.entries()) {
    const where = `${label} ${index + 1} (${message.role})`;
    if (message.content === undefined) return `${where} has no content`;
    if (message.content === null) {
      if ((message.tool_calls?.length ?? 0) > 0) continue;
      return `${where} has null content and no tool_calls`;
    }
    if (toChatMessage(message).content.trim() === "") return `${where} has empty content`;
  }
  return null;
}

function toChatMessage(message: z.infer<typeof messageSchema>): ChatMessage {
  const content = message.content;
  if (typeof content === "string") return { role: message.role, content };
  if (Array.isArray(content)) {
    return {
      role: message.role,
      content: content
        .map((part) => part.text ?? "")
        .filter(Boolean)
        .join("\n"),
    };
  }
  return { role: message.role, content: "" };
}

function lastUserText(messages: ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === "user") return messages[i].content;
  return messages[messages.length - 1].content;
}

export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return "a string";
  return `a ${typeof value}`;
}

/** The first problem zod found, its place in people's words (see describePlace); `column` names the array's items. */
export function firstIssue(error: z.ZodError, column?: string): string {
  const issue = error.issues[0];
  const place = issue.path.length > 0 ? `${describePlace(issue.path, column)}: ` : "";
  return `${place}${issue.message}`;
}
