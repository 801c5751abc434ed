import { sqlOf, type Db } from "../client";
import { sqlFragments } from "../store/sqlFragments";
import type { StoredToolCall } from "@/lib/contract/toolCalls";
import { conversationTurnsOf, type ConversationTurn } from "../datasets/conversationQueries";

export type { StoredToolCall, ConversationTurn };

/** Everything a judge needs of a row: text, ground truth, chunks, agent facts, and the run's generated response if any. */
export type JudgeRowData = {
  id: string;
  messages: string;
  requestText: string;
  response: string | null;
  /** The response column was there and empty (response is null then); DeepEval-exact judges it as "". */
  hasEmptyResponse?: boolean;
  expectedResponse: string | null;
  expectedFacts: string | null;
  totalTokenCount: number | null;
  inputTokenCount: number | null;
  outputTokenCount: number | null;
  latencySeconds: number | null;
  chunks: { kind: string; position: number; content: string | null; docUri: string }[];
  /** Whether the agent's tool calls are known ([] counts) and whether the row expects some. */
  hasToolCalls: boolean;
  hasExpectedToolCalls: boolean;
  /** The row's ToolCall rows, called then expected, each in order (arguments and output as stored JSON text). */
  toolCalls: StoredToolCall[];
  /** JSON [{ name, description, parameters }]: the tools the trace's model was offered. */
  availableTools: string | null;
  /** The MLflow trace as uploaded, loaded only for judges that read it (`withTrace`); null otherwise. */
  trace: string | null;
  sessionId: string | null;
  /**
   * The conversation judged on this row, turn by turn (`withConversation`, on a conversation's anchor): a
   * session's turns in order (each row's request and response), or the request's turns and its response.
   */
  conversation: ConversationTurn[] | null;
  generation: {
    rowId: string;
    status: string;
    response: string | null;
    errorMessage: string | null;
    inputTokenCount: number | null;
    outputTokenCount: number | null;
    latencySeconds: number | null;
  } | null;
};

type GenerationData = NonNullable<JudgeRowData["generation"]>;

/** A row as work loads it: `generation` is trial 1's; a run with trials judges trial t against `generationsByTrial`'s t. */
export type WorkRow = JudgeRowData & { generationsByTrial: ReadonlyMap<number, GenerationData> };

/** At most this many rows per load: the caller's claim size fixes it, never the run's size. */
export const MAX_WORK_ROWS = 1000;

/**
 * The rows a batch of claimed work needs, with their chunks, tool calls and the run's
 * generations, in four queries. The row ids reach the store as ONE bound
 * list (sqlFragments.inList), so every query binds the same few values.
 */
export async function loadRowsForWork(
  db: Db,
  runId: string,
  rowIds: string[],
  options: { withTrace?: readonly string[]; withConversation?: readonly string[] } = {},
): Promise<Map<string, WorkRow>> {
  if (rowIds.length === 0) return new Map();
  if (rowIds.length > MAX_WORK_ROWS) throw new Error(`a batch of work reads at most ${MAX_WORK_ROWS} rows`);
  const sql = sqlOf(db);
  const { inList } = sqlFragments(sql);
  const rows = await sql.all<Omit<JudgeRowData, "chunks" | "toolCalls" | "generation" | "trace" | "conversation">>(
    `SELECT "id", "messages", "requestText", "response", "hasEmptyResponse", "expectedResponse", "expectedFacts", "totalTokenCount", "inputTokenCount", "outputTokenCount", "latencySeconds", "hasToolCalls", "hasExpectedToolCalls", "availableTools", "sessionId"
     FROM "DatasetRow" WHERE ${inList(`"id"`)}`,
    [rowIds],
  );
  const byId = new Map<string, WorkRow & { generationsByTrial: Map<number, GenerationData> }>(
    rows.map((row) => [
      row.id,
      {
        ...row,
        // SQLite answers 0/1 for booleans.
        hasEmptyResponse: Boolean(row.hasEmptyResponse),
        hasToolCalls: Boolean(row.hasToolCalls),
        hasExpectedToolCalls: Boolean(row.hasExpectedToolCalls),
        chunks: [],
        toolCalls: [],
        trace: null,
        conversation: null,
        generation: null,
        generationsByTrial: new Map(),
      },
    ]),
  );
  const chunks = await sql.all<JudgeRowData["chunks"][number] & { rowId: string }>(
    `SELECT "rowId", "kind", "position", "content", "docUri" FROM "ContextChunk" WHERE ${inList(`"rowId"`)} ORDER BY "rowId", "kind", "position"`,
    [rowIds],
  );
  for (const { rowId, ...chunk } of chunks) byId.get(rowId)?.chunks.push(chunk);
  if (rows.some((row) => row.hasToolCalls || row.hasExpectedToolCalls)) {
    const calls = await sql.all<StoredToolCall & { rowId: string }>(
      `SELECT "rowId", "kind", "position", "name", "arguments", "output", "error", "startMs", "durationMs", "spanId"
       FROM "ToolCall" WHERE ${inList(`"rowId"`)} ORDER BY "rowId", "kind", "position"`,
      [rowIds],
    );
    for (const { rowId, ...call } of calls) byId.get(rowId)?.toolCalls.push(call);
  }
  // Traces can be large: read only for the rows whose claimed judges read them (a trajectory's task, its steps).
  const traced = (options.withTrace ?? []).filter((id) => byId.has(id));
  if (traced.length > 0) {
    const traces = await sql.all<{ id: string; trace: string | null }>(
      `SELECT "id", "trace" FROM "DatasetRow" WHERE ${inList(`"id"`)}`,
      [traced],
    );
    for (const { id, trace } of traces) {
      const row = byId.get(id);
      if (row) row.trace = trace;
    }
  }
  // Every turn, unbounded: the judges read the whole conversation. One query per conversation: a batch holds few anchors.
  for (const id of options.withConversation ?? []) {
    const row = byId.get(id);
    if (row) row.conversation = (await conversationTurnsOf(db, row)).turns;
  }
  const generations = await sql.all<GenerationData & { trial: number }>(
    `SELECT "rowId", "trial", "status", "response", "errorMessage", "inputTokenCount", "outputTokenCount", "latencySeconds"
     FROM "Generation" WHERE "runId" = ? AND ${inList(`"rowId"`)}`,
    [runId, rowIds],
  );
  for (const { trial, ...generation } of generations) {
    const row = byId.get(generation.rowId);
    if (!row) continue;
    row.generationsByTrial.set(Number(trial), generation);
    if (Number(trial) === 1) row.generation = generation;
  }
  return byId;
}
