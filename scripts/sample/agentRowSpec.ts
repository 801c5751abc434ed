// What a row of the Northwind ops agent sample is written as (agentSampleRows.ts, agentSampleFaults.ts,
// agentSampleSessions.ts), and two helpers to write its tool calls.
import type { ToolCallSpec, ToolName } from "./agentSampleWorld";
import type { TurnSpec } from "./agentTrace";

export type RowKind =
  | "correct"
  | "wrong tool"
  | "wrong arguments"
  | "missing call"
  | "wrong order"
  | "tool loop"
  | "tool error, retried"
  | "ignores tool output"
  | "forgets an earlier turn";

/** An expected call: a bare name, or MLflow's {name, arguments?} (no arguments: compare names only). */
export type ExpectedCall = string | { name: ToolName; arguments?: Record<string, unknown> };

export type RowSpec = TurnSpec & {
  /** agent-NNN. */
  id: number;
  kind: RowKind;
  /** What is wrong, for the summary the generator prints (not written to the file). */
  fault?: string;
  /** Send the request as OpenAI chat messages rather than a plain string. */
  asMessages?: boolean;
  expectedToolCalls?: ExpectedCall[];
  expectedFacts?: string[];
  expectedResponse?: string;
  /** Doc paths (agentSampleWorld.ts) for expected_retrieved_context. */
  expectedDocs?: string[];
};

export const call = (name: ToolName, args: Record<string, unknown>, more: Partial<ToolCallSpec> = {}) => ({
  name,
  args,
  ...more,
});

/** A search_docs call finding these passages; with a RETRIEVER span unless `retriever` is false. */
export const search = (query: string, docs: string[], retriever = true): ToolCallSpec => ({
  name: "search_docs",
  args: { query },
  docs,
  retriever,
});
