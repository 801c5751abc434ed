// Synthetic agent rows for bench:agents: MLflow 3 traces of `spans` spans each (an AGENT root, CHAT_MODEL
// calls offered the tools, TOOL calls with arguments and results, sometimes a RETRIEVER), with the calls
// the row expects. Deterministic: row i is the same on every run.

const TOOLS = ["search_docs", "get_bucket", "list_buckets", "get_invoice", "create_ticket", "get_region_status"];
const j = (value: unknown) => JSON.stringify(value);

/** A seeded PRNG (mulberry32), so the rows do not change between runs. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Span = Record<string, unknown>;

function span(
  id: string,
  parent: string | null,
  name: string,
  type: string,
  start: number,
  end: number,
  attributes: Record<string, unknown>,
): Span {
  return {
    trace_id: "tr",
    span_id: id,
    parent_span_id: parent,
    name,
    start_time_unix_nano: String(start * 1_000_000),
    end_time_unix_nano: String(end * 1_000_000),
    status: { code: "STATUS_CODE_OK", message: "" },
    events: [],
    attributes: Object.fromEntries([
      ["mlflow.spanType", j(type)],
      ...Object.entries(attributes).map(([k, v]) => [k, j(v)]),
    ]),
  };
}

/** One agent row whose trace has exactly `spanCount` spans (at least 3). */
export function agentRow(index: number, spanCount: number): Record<string, unknown> {
  const next = random(index + 1);
  const question = `Request ${index}: what is the state of bucket logs-${index % 97} and its July invoice?`;
  const tools = TOOLS.map((name) => ({
    type: "function",
    function: {
      name,
      description: `The ${name} tool`,
      parameters: { type: "object", properties: { q: { type: "string" } } },
    },
  }));
  const base = 1_700_000_000_000 + index * 60_000;
  let clock = base + 5;
  const spans: Span[] = [];
  const calls: { name: string; arguments: Record<string, unknown> }[] = [];
  for (let i = 1; i < spanCount; i += 1) {
    const id = `s${i}`;
    if (i % 3 === 1) {
      const end = clock + 300 + Math.floor(next() * 1500);
      spans.push(
        span(id, "root", "chat", "CHAT_MODEL", clock, end, {
          "mlflow.chat.tools": tools,
          "mlflow.chat.tokenUsage": { input_tokens: 400, output_tokens: 60, total_tokens: 460 },
        }),
      );
      clock = end + 1;
    } else if (i % 7 === 0) {
      const end = clock + 80;
      spans.push(
        span(id, "root", "retrieve", "RETRIEVER", clock, end, {
          "mlflow.spanOutputs": [
            {
              page_content: `Bucket logs-${index % 97} keeps logs for 30 days.`,
              metadata: { doc_uri: `doc://buckets/${index % 97}` },
            },
          ],
        }),
      );
      clock = end + 1;
    } else {
      const name = TOOLS[Math.floor(next() * TOOLS.length)];
      const args = { q: `logs-${index % 97}`, step: i };
      calls.push({ name, arguments: args });
      const end = clock + 50 + Math.floor(next() * 850);
      spans.push(
        span(id, "root", name, "TOOL", clock, end, {
          "mlflow.spanInputs": args,
          "mlflow.spanOutputs": { ok: true, detail: `result of ${name} for step ${i}` },
        }),
      );
      clock = end + 1;
    }
  }
  const answer = `Bucket logs-${index % 97} is active; the July invoice is 42 USD.`;
  spans.unshift(
    span("root", null, "ops_agent", "AGENT", base, clock + 5, {
      "mlflow.spanInputs": { messages: [{ role: "user", content: question }] },
      "mlflow.spanOutputs": answer,
    }),
  );
  return {
    request_id: `agent-${index}`,
    request: question,
    trace: {
      info: {
        trace_id: `tr-${index}`,
        request_time: new Date(base).toISOString(),
        state: "OK",
        trace_metadata: { "mlflow.trace_schema.version": "3" },
      },
      data: { spans },
    },
    // Most rows expect the calls made; every fifth expects a different last call.
    expected_tool_calls:
      calls.length === 0
        ? [{ name: "get_bucket" }]
        : calls.map((call, i) => (index % 5 === 0 && i === calls.length - 1 ? { name: "create_ticket" } : call)),
    expected_facts: ["The bucket is active.", "The July invoice is 42 USD."],
  };
}

/** `count` rows with 5 to 20 spans each. */
export function agentRows(count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, index) => agentRow(index, 5 + (index % 16)));
}
