// npx tsx scripts/sample/makeAgentSample.ts
// Writes prisma/sample/agent-sample.jsonl, the second bundled sample: 40 turns of a "Northwind ops agent"
// that answers support and ops requests with tools, each with its MLflow 3 trace (agentTrace.ts), in Agent
// Evaluation's input schema plus expected_tool_calls. The rows are hand-written (agentSampleRows.ts,
// agentSampleFaults.ts, agentSampleSessions.ts); timings come from a PRNG seeded by the request id, so the
// file is the same on every run.
import fs from "node:fs";
import path from "node:path";
import type { RowSpec } from "./agentRowSpec";
import { CORRECT_ROWS } from "./agentSampleRows";
import { FAULT_ROWS } from "./agentSampleFaults";
import { SESSIONS } from "./agentSampleSessions";
import { docUri } from "./agentSampleWorld";
import { buildTrace, seededRandom, type ChatMessage } from "./agentTrace";

const OUT = path.join("prisma", "sample", "agent-sample.jsonl");
const ROW_COUNT = 40;
/** The first request: 2026-10-14 08:05 UTC; one every 13 minutes or so after it. */
const FIRST_REQUEST_MS = Date.UTC(2026, 9, 14, 8, 5, 0);
const MINUTE_MS = 60_000;
const DEFAULT_USER = "ops@acme.example";

type Placed = { spec: RowSpec; session: string | null; user: string; history: ChatMessage[]; followsTurn: boolean };

function requestId(id: number): string {
  return `agent-${String(id).padStart(3, "0")}`;
}

/** Every row with what its trace needs: its session, its user and the conversation before it. */
function placeRows(): Placed[] {
  const placed: Placed[] = [...CORRECT_ROWS, ...FAULT_ROWS].map((spec) => ({
    spec,
    session: null,
    user: DEFAULT_USER,
    history: [],
    followsTurn: false,
  }));
  for (const session of SESSIONS) {
    const history: ChatMessage[] = [];
    session.turns.forEach((spec, turn) => {
      placed.push({ spec, session: session.session, user: session.user, history: [...history], followsTurn: turn > 0 });
      history.push({ role: "user", content: spec.user }, { role: "assistant", content: spec.answer });
    });
  }
  placed.sort((a, b) => a.spec.id - b.spec.id);
  const ids = placed.map((each) => each.spec.id).join(",");
  const wanted = Array.from({ length: ROW_COUNT }, (_, i) => i + 1).join(",");
  if (ids !== wanted) throw new Error(`the rows must be numbered 1 to ${ROW_COUNT} once each; got ${ids}`);
  return placed;
}

function rowOf(placed: Placed, requestTimeMs: number): { row: Record<string, unknown>; endMs: number } {
  const { spec } = placed;
  const id = requestId(spec.id);
  const { trace, endMs } = buildTrace(spec, {
    requestId: id,
    requestTimeMs,
    history: placed.history,
    session: placed.session,
    user: placed.user,
  });
  const messages = [...placed.history, { role: "user", content: spec.user }];
  const row: Record<string, unknown> = {
    request_id: id,
    request: placed.session || spec.asMessages ? { messages } : spec.user,
  };
  if (spec.expectedFacts && spec.expectedResponse) throw new Error(`${id}: give expected_facts or expected_response`);
  if (spec.expectedFacts) row.expected_facts = spec.expectedFacts;
  if (spec.expectedResponse) row.expected_response = spec.expectedResponse;
  if (spec.expectedDocs) row.expected_retrieved_context = spec.expectedDocs.map((doc) => ({ doc_uri: docUri(doc) }));
  if (spec.expectedToolCalls) row.expected_tool_calls = spec.expectedToolCalls;
  row.trace = trace;
  return { row, endMs };
}

/** JSON with bigint nanoseconds written as plain integers, as MLflow's Span.to_dict() gives them. */
function toJsonLine(row: Record<string, unknown>): string {
  const text = JSON.stringify(row, (_key, value: unknown) => (typeof value === "bigint" ? `@ns:${value}` : value));
  return text.replace(/"@ns:(\d+)"/g, "$1");
}

function main(): void {
  const lines: string[] = [];
  const rows = placeRows();
  let previousEndMs = 0;
  for (const placed of rows) {
    const random = seededRandom(`request-time/${placed.spec.id}`);
    // A follow-up turn comes 20-90 s after the agent answered the previous one.
    const requestTimeMs = placed.followsTurn
      ? previousEndMs + Math.round((20 + 70 * random()) * 1000)
      : FIRST_REQUEST_MS + (placed.spec.id - 1) * 13 * MINUTE_MS + Math.round(random() * 4 * MINUTE_MS);
    const { row, endMs } = rowOf(placed, requestTimeMs);
    previousEndMs = endMs;
    lines.push(toJsonLine(row));
  }
  fs.writeFileSync(OUT, lines.join("\n") + "\n");
  summarize(rows, OUT, lines);
}

function summarize(placed: Placed[], out: string, lines: string[]): void {
  const count = (test: (each: Placed) => boolean) => placed.filter(test).length;
  const byKind = new Map<string, number>();
  for (const { spec } of placed) byKind.set(spec.kind, (byKind.get(spec.kind) ?? 0) + 1);
  console.log(`wrote ${out}: ${lines.length} rows, ${lines.join("\n").length.toLocaleString("en-US")} bytes`);
  console.log(`  by kind: ${[...byKind].map(([kind, n]) => `${kind} ${n}`).join(", ")}`);
  console.log(`  in sessions: ${count((each) => each.session !== null)} (${SESSIONS.length} sessions)`);
  console.log(`  with expected_tool_calls: ${count((each) => each.spec.expectedToolCalls !== undefined)}`);
  console.log(
    `  with expected_facts or expected_response: ${count((each) => Boolean(each.spec.expectedFacts ?? each.spec.expectedResponse))}`,
  );
  console.log(`  with a RETRIEVER span: ${count((each) => each.spec.steps.flat().some((call) => call.retriever))}`);
  for (const { spec } of placed) if (spec.fault) console.log(`  ${requestId(spec.id)} ${spec.kind}: ${spec.fault}`);
}

main();
