import { z } from "zod";
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import type { ChatTurn } from "./types";
import type { StructuredOutputMode } from "./llmConfig";
import { truncateForMessage } from "./llmErrors";

/**
 * How a zod schema becomes a chat-completions request, and how the answer
 * comes back out: three wire formats (json_schema, json_object, a forced tool
 * call) because local servers support different subsets.
 */
export type JsonSchema = Record<string, unknown>;

/** OpenAI accepts names matching ^[a-zA-Z0-9_-]{1,64}$ for both response formats and tools. */
export function wireName(schemaName: string): string {
  const cleaned = schemaName.replace(/[^a-zA-Z0-9_-]+/g, "_").slice(0, 64);
  return cleaned || "answer";
}

/**
 * JSON schema of what the model must write, i.e. zod's *input* side (what
 * parse() accepts). Objects get additionalProperties:false because zod strips
 * extra keys anyway and strict mode demands it. `strict` is on only when the
 * schema fits OpenAI's strict subset (every property required, no open
 * objects); otherwise the server would reject the whole request.
 */
export function toWireSchema(schema: z.ZodType): { schema: JsonSchema; strict: boolean } {
  const raw = z.toJSONSchema(schema, { target: "draft-07", io: "input", unrepresentable: "any" }) as JsonSchema;
  delete raw.$schema;
  const cleaned = clean(raw) as JsonSchema;
  return { schema: cleaned, strict: fitsStrictSubset(cleaned) };
}

const SAFE_INT = Number.MAX_SAFE_INTEGER;

function clean(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(clean);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    // z.number().int() emits ±MAX_SAFE_INTEGER bounds: noise for the model, and rejected by some servers.
    if ((key === "minimum" && value === -SAFE_INT) || (key === "maximum" && value === SAFE_INT)) continue;
    // OpenAI's strict subset allows only pattern and format on strings, and Azure rejects the whole
    // request over maxLength; string lengths are enforced (or truncated) when the answer is parsed.
    if (key === "minLength" || key === "maxLength") continue;
    out[key] = clean(value);
  }
  if (out.type === "object" && out.properties && out.additionalProperties === undefined)
    out.additionalProperties = false;
  return out;
}

const NON_STRICT_KEYWORDS = new Set([
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "patternProperties",
  "dependentRequired",
  "dependentSchemas",
  "default",
]);

function fitsStrictSubset(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(fitsStrictSubset);
  if (!node || typeof node !== "object") return true;
  const record = node as Record<string, unknown>;
  if (Object.keys(record).length === 0) return false; // z.any()/z.unknown(): strict mode has no "anything"
  if (Object.keys(record).some((key) => NON_STRICT_KEYWORDS.has(key))) return false;
  if (record.type === "object") {
    const properties = record.properties as Record<string, unknown> | undefined;
    if (!properties || record.additionalProperties !== false) return false;
    const required = new Set((record.required as string[] | undefined) ?? []);
    if (!Object.keys(properties).every((key) => required.has(key))) return false;
  }
  return Object.values(record).every(fitsStrictSubset);
}

/** The request body for one structured attempt. */
export function buildStructuredRequest(args: {
  mode: StructuredOutputMode;
  model: string;
  messages: ChatCompletionMessageParam[];
  schemaName: string;
  wire: { schema: JsonSchema; strict: boolean };
}): ChatCompletionCreateParamsNonStreaming {
  const name = wireName(args.schemaName);
  const base = { model: args.model, temperature: 0, messages: args.messages };
  switch (args.mode) {
    case "json_schema":
      return {
        ...base,
        response_format: {
          type: "json_schema",
          json_schema: { name, schema: args.wire.schema, strict: args.wire.strict },
        },
      };
    case "json_object":
      // json_object only promises *some* JSON object (and OpenAI insists the word
      // "JSON" appears in the prompt), so the schema travels in the system prompt.
      return {
        ...base,
        messages: withSchemaInstruction(args.messages, args.wire.schema),
        response_format: { type: "json_object" },
      };
    case "tool":
      return {
        ...base,
        tools: [
          {
            type: "function",
            function: {
              name,
              description: "Record the answer.",
              parameters: args.wire.schema,
              strict: args.wire.strict,
            },
          },
        ],
        tool_choice: { type: "function", function: { name } },
      };
  }
}

function withSchemaInstruction(
  messages: ChatCompletionMessageParam[],
  schema: JsonSchema,
): ChatCompletionMessageParam[] {
  const instruction = `Respond with only a JSON object that matches this JSON Schema:\n${JSON.stringify(schema)}`;
  const [first, ...rest] = messages;
  // Merged into the leading system turn: several local chat templates reject a system turn anywhere but first.
  if (first && first.role === "system" && typeof first.content === "string") {
    return [{ role: "system", content: `${first.content}\n\n${instruction}` }, ...rest];
  }
  return [{ role: "system", content: instruction }, ...messages];
}

export function toMessageParams(turns: ChatTurn[]): ChatCompletionMessageParam[] {
  return turns.map((turn) => ({ role: turn.role, content: turn.content }));
}

/** The raw answer text: message content, or the forced tool call's arguments. `null` when the model gave nothing usable. */
export function extractAnswer(
  completion: ChatCompletion,
  mode: StructuredOutputMode,
): { raw: string | null; problem: string | null } {
  const message = completion.choices[0]?.message;
  if (!message) return { raw: null, problem: "the response had no choices" };
  if (message.refusal) return { raw: null, problem: `the model refused: ${truncateForMessage(message.refusal, 200)}` };
  if (mode === "tool") {
    const call = message.tool_calls?.find((candidate) => candidate.type === "function");
    if (call && call.type === "function") return { raw: call.function.arguments, problem: null };
    if (message.content) return { raw: message.content, problem: null };
    return { raw: null, problem: "the model did not call the answer tool" };
  }
  if (message.content === null || message.content.trim() === "") return { raw: null, problem: "the answer was empty" };
  return { raw: message.content, problem: null };
}

/** Parses and validates; the error names the first problems in words the repair prompt and the user can act on. */
export function parseAnswer<T>(
  raw: string,
  schema: z.ZodType<T>,
): { ok: true; value: T } | { ok: false; problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(stripCodeFence(raw));
  } catch (error) {
    const reason = error instanceof Error ? error.message : "parse error";
    return { ok: false, problem: `the answer is not valid JSON (${truncateForMessage(reason, 120)})` };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "(root)"}: ${issue.message}`);
  return { ok: false, problem: `the answer does not match the schema (${truncateForMessage(issues.join("; "), 300)})` };
}

/** Small models in json_object mode often wrap JSON in ```json fences; that is not worth a repair round-trip. */
function stripCodeFence(raw: string): string {
  const match = /^\s*```(?:json)?\s*\n?([\s\S]*?)\n?\s*```\s*$/i.exec(raw);
  return match ? match[1] : raw;
}

export function repairTurns(badAnswer: string, problem: string): ChatCompletionMessageParam[] {
  return [
    { role: "assistant", content: badAnswer },
    {
      role: "user",
      content: `Your previous answer was rejected: ${problem}. Reply again with only valid JSON that matches the required schema: no prose, no code fences.`,
    },
  ];
}
