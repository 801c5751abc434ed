// Builds the MLflow 3 trace of one turn of the Northwind ops agent (scripts/sample/makeAgentSample.ts): an
// AGENT root span whose outputs are the answer; an input guardrail and a memory lookup; then, per step, a
// CHAT_MODEL span asking for tool calls followed by their TOOL spans (search_docs with a RETRIEVER span inside
// when the row asks for one); a last CHAT_MODEL span writing the answer; an output guardrail. Span attribute
// values are JSON-encoded strings, as MLflow stores them; times are integer nanoseconds (bigint here, written
// as JSON integers by makeAgentSample.ts).
import { createHash } from "node:crypto";
import { passages, runTool, TOOLS, type ToolCallSpec } from "./agentSampleWorld";

export type ChatMessage = { role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string };

export type TurnSpec = {
  /** The user's message of this turn. */
  user: string;
  /** Each step is one model call asking for these tool calls (more than one: parallel calls). */
  steps: ToolCallSpec[][];
  /** The agent's final answer. */
  answer: string;
};

export type TraceContext = {
  requestId: string;
  /** Milliseconds since the epoch: when the request reached the agent. */
  requestTimeMs: number;
  /** The conversation before this turn (user and assistant messages). */
  history: ChatMessage[];
  session: string | null;
  user: string;
};

const MODEL = "gpt-4o-mini-2024-07-18";
const SYSTEM_PROMPT =
  "You are Northwind's ops assistant for the customer's Northwind Cloud Storage account. Use the tools to look up " +
  "buckets, invoices, region health and documentation, and open tickets when asked. Answer from what the tools return.";
const NS_PER_MS = 1_000_000n;

type Span = Record<string, unknown>;

/** How long each tool takes, in milliseconds (low, high). */
const DURATIONS_MS: Record<ToolCallSpec["name"], [number, number]> = {
  search_docs: [280, 880],
  get_bucket: [80, 260],
  list_buckets: [120, 420],
  get_invoice: [150, 620],
  create_ticket: [220, 780],
  get_region_status: [60, 210],
};

/** A deterministic PRNG (mulberry32) seeded from a string. */
export function seededRandom(seed: string): () => number {
  let state = createHash("sha256").update(seed).digest().readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hex(seed: string, length: number): string {
  return createHash("sha256").update(seed).digest("hex").slice(0, length);
}

/** Roughly how many tokens a text is (about four characters a token), as a tokenizer would count it. */
function tokens(text: string): number {
  return Math.ceil(text.length / 4);
}

const TOOLS_TOKENS = tokens(JSON.stringify(TOOLS));

function promptTokens(messages: ChatMessage[]): number {
  return (
    TOOLS_TOKENS +
    messages.reduce((sum, m) => sum + 4 + tokens(m.content ?? "") + tokens(JSON.stringify(m.tool_calls ?? "")), 0)
  );
}

/** The trace of one turn, and the messages its request holds. */
export function buildTrace(turn: TurnSpec, context: TraceContext): { trace: unknown; endMs: number } {
  const random = seededRandom(context.requestId);
  const between = (low: number, high: number) => low + (high - low) * random();
  const ms = (low: number, high: number) => BigInt(Math.round(between(low, high) * 1e6));
  const traceId = `tr-${hex(context.requestId, 32)}`;
  const spans: Span[] = [];
  const nowIso = (at: bigint) => new Date(Number(at / NS_PER_MS)).toISOString();

  const span = (
    name: string,
    type: string,
    parent: string | null,
    start: bigint,
    end: bigint,
    inputs: unknown,
    outputs: unknown,
    extra: Record<string, unknown> = {},
  ): Span => {
    const attributes: Record<string, string> = {
      "mlflow.traceRequestId": JSON.stringify(traceId),
      "mlflow.spanType": JSON.stringify(type),
      "mlflow.spanInputs": JSON.stringify(inputs),
    };
    if (outputs !== undefined) attributes["mlflow.spanOutputs"] = JSON.stringify(outputs);
    for (const [key, value] of Object.entries(extra)) attributes[key] = JSON.stringify(value);
    const made: Span = {
      trace_id: traceId,
      span_id: hex(`${traceId}/${spans.length}`, 16),
      parent_span_id: parent,
      name,
      start_time_unix_nano: start,
      end_time_unix_nano: end,
      status: { code: "STATUS_CODE_OK", message: "" },
      events: [],
      attributes,
    };
    spans.push(made);
    return made;
  };

  const start = BigInt(context.requestTimeMs) * NS_PER_MS + BigInt(Math.floor(random() * 1e6));
  const userMessage: ChatMessage = { role: "user", content: turn.user };
  const request = { messages: [...context.history, userMessage] };
  const root = span("northwind_ops_agent", "AGENT", null, start, start, request, turn.answer);
  const rootId = root.span_id as string;
  let cursor = start + ms(0.3, 2);

  const guardEnd = cursor + ms(15, 60);
  span("input_guardrail", "CHAIN", rootId, cursor, guardEnd, { text: turn.user }, { flagged: false, categories: [] });
  cursor = guardEnd + ms(0.2, 1.5);
  const memoryEnd = cursor + ms(4, 25);
  span(
    "load_conversation",
    "MEMORY",
    rootId,
    cursor,
    memoryEnd,
    { session_id: context.session, user: context.user },
    { messages: context.history.length },
  );
  cursor = memoryEnd + ms(0.2, 1.5);

  const messages: ChatMessage[] = [{ role: "system", content: SYSTEM_PROMPT }, ...request.messages];
  const chat = (message: ChatMessage, finish: string) => {
    const inputTokens = promptTokens(messages);
    const outputTokens = tokens(message.content ?? "") + tokens(JSON.stringify(message.tool_calls ?? ""));
    const duration = Math.min(2500, Math.max(300, 220 + outputTokens * 9 + between(60, 420)));
    const end = cursor + BigInt(Math.round(duration * 1e6));
    const usage = { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens };
    span(
      "Completions",
      "CHAT_MODEL",
      rootId,
      cursor,
      end,
      { model: MODEL, messages: [...messages], temperature: 0 },
      {
        id: `chatcmpl-${hex(`${traceId}/chat/${spans.length}`, 24)}`,
        object: "chat.completion",
        created: Number(cursor / 1_000_000_000n),
        model: MODEL,
        choices: [{ index: 0, message, finish_reason: finish }],
        usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: usage.total_tokens },
      },
      { "mlflow.chat.tools": TOOLS, "mlflow.chat.tokenUsage": usage, "mlflow.message.format": "openai" },
    );
    messages.push(message);
    cursor = end + ms(0.5, 4);
  };

  turn.steps.forEach((step, stepIndex) => {
    const ids = step.map((_, i) => `call_${hex(`${traceId}/${stepIndex}/${i}`, 24)}`);
    const toolCalls = step.map((call, i) => ({
      id: ids[i],
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.args) },
    }));
    chat({ role: "assistant", content: null, tool_calls: toolCalls }, "tool_calls");
    let stepEnd = cursor;
    // Parallel calls start in the order the model listed them, a fraction of a millisecond apart.
    let callStart = cursor;
    step.forEach((call, i) => {
      callStart += ms(0.1, 2);
      const callEnd = callStart + (call.error ? ms(600, 900) : ms(...DURATIONS_MS[call.name]));
      const output = call.error ? undefined : runTool(call, nowIso(callStart));
      const made = span(call.name, "TOOL", rootId, callStart, callEnd, call.args, output, {
        "mlflow.spanFunctionName": call.name,
      });
      if (call.error) {
        made.status = { code: "STATUS_CODE_ERROR", message: `${call.error.type}: ${call.error.message}` };
        made.events = [
          {
            name: "exception",
            time_unix_nano: callEnd,
            attributes: {
              "exception.type": call.error.type,
              "exception.message": call.error.message,
              "exception.stacktrace": `Traceback (most recent call last):\n  File "northwind_agent/tools.py", line 88, in ${call.name}\n    response.raise_for_status()\n${call.error.type}: ${call.error.message}`,
              "exception.escaped": "False",
            },
          },
        ];
      }
      if (call.retriever) {
        const lookupStart = callStart + ms(8, 30);
        const chunks = passages(call.docs ?? []).map((each, rank) => ({
          page_content: each.content,
          metadata: { doc_uri: each.docUri, chunk_id: `${each.docUri.split("/").pop()}-${rank}`.replace("#", "-") },
        }));
        const query = { query: call.args.query, k: chunks.length };
        span("vector_search", "RETRIEVER", made.span_id as string, lookupStart, callEnd - ms(5, 20), query, chunks);
      }
      const content = call.error ? `Error: ${call.error.type}: ${call.error.message}` : JSON.stringify(output);
      messages.push({ role: "tool", tool_call_id: ids[i], content });
      if (callEnd > stepEnd) stepEnd = callEnd;
    });
    cursor = stepEnd + ms(0.5, 3);
  });

  chat({ role: "assistant", content: turn.answer }, "stop");
  const outEnd = cursor + ms(10, 40);
  span("output_guardrail", "CHAIN", rootId, cursor, outEnd, { text: turn.answer }, { flagged: false, pii: [] });
  const end = outEnd + ms(0.5, 2);
  root.end_time_unix_nano = end;

  const preview = (text: string) => (text.length > 120 ? `${text.slice(0, 117)}...` : text);
  const metadata: Record<string, string> = { "mlflow.trace_schema.version": "3", "mlflow.trace.user": context.user };
  if (context.session) metadata["mlflow.trace.session"] = context.session;
  const trace = {
    info: {
      trace_id: traceId,
      client_request_id: context.requestId,
      trace_location: { type: "MLFLOW_EXPERIMENT", mlflow_experiment: { experiment_id: "3" } },
      request_time: new Date(context.requestTimeMs).toISOString(),
      state: "OK",
      execution_duration_ms: Number((end - start) / NS_PER_MS),
      request_preview: preview(turn.user),
      response_preview: preview(turn.answer),
      trace_metadata: metadata,
      tags: { "mlflow.traceName": "northwind_ops_agent" },
    },
    data: { spans },
  };
  return { trace, endMs: Number(end / NS_PER_MS) };
}
