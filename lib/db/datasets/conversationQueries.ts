import { sqlOf, type Db } from "../client";
import { decodeVerdictDetails } from "../judgments/verdictDetails";
import { CONVERSATION_METRICS } from "@/lib/contract/conversationMetricCatalog";
import type { VerdictDetails } from "@/lib/contract/judgeResult";

/** One turn of a conversation; `rowId` names the row (turn of a session) it came from. */
export type ConversationTurn = { role: string; content: string; rowId: string };

/**
 * The turns a row page shows of one conversation: a session of 10,000 turns must not render 10,000 cards. The
 * judges read every turn (workRows.ts); the page says how many it left out.
 */
export const MAX_SHOWN_TURNS = 200;

/** What the turns are built from: the row a conversation is read for (its session, or its own request). */
type ConversationSource = { id: string; sessionId: string | null; messages: string; response: string | null };

/** A conversation's first `limit` turns, how many it has in all, and the row number of each session row shown. */
export type ConversationTurns = { turns: ConversationTurn[]; total: number; rowNumbers: Map<string, number> };

/**
 * The conversation a row belongs to, turn by turn, as the conversation judges read it (turn N of a verdict's
 * `turn N` tag is `turns[N - 1]`): its session's rows in order (by request time, then row number: the order
 * markSessionAnchors anchors on), each row's request (its last user turn) and response; or, for a row with no
 * session, its request's turns and its response. One query, two when a session passes `limit` rows (its count).
 */
export async function conversationTurnsOf(
  db: Db,
  row: ConversationSource,
  limit: number = Number.POSITIVE_INFINITY,
): Promise<ConversationTurns> {
  if (row.sessionId === null) {
    const turns = [
      ...parseMessages(row.messages).map((message) => ({ ...message, rowId: row.id })),
      ...(row.response !== null ? [{ role: "assistant", content: row.response, rowId: row.id }] : []),
    ];
    return { turns: turns.slice(0, limit), total: turns.length, rowNumbers: new Map() };
  }
  const sql = sqlOf(db);
  // Each row gives one or two turns: `limit` rows always hold the first `limit` turns.
  const bounded = Number.isFinite(limit);
  const rows = await sql.all<{ id: string; rowNumber: number; requestText: string; response: string | null }>(
    `SELECT s."id", s."rowNumber", s."requestText", s."response" FROM "DatasetRow" s
     WHERE s."datasetId" = (SELECT r."datasetId" FROM "DatasetRow" r WHERE r."id" = ?) AND s."sessionId" = ?
     ORDER BY COALESCE(s."sessionTime", 1e300), s."rowNumber"${bounded ? " LIMIT ?" : ""}`,
    bounded ? [row.id, row.sessionId, limit] : [row.id, row.sessionId],
  );
  const turns = rows.flatMap((turn) => [
    { role: "user", content: turn.requestText, rowId: turn.id },
    ...(turn.response !== null ? [{ role: "assistant", content: turn.response, rowId: turn.id }] : []),
  ]);
  const total = bounded && rows.length >= limit ? await sessionTurnCount(db, row.id, row.sessionId) : turns.length;
  const shown = turns.slice(0, limit);
  const shownRows = new Set(shown.map((turn) => turn.rowId));
  return {
    turns: shown,
    total,
    rowNumbers: new Map(rows.filter((r) => shownRows.has(r.id)).map((r) => [r.id, Number(r.rowNumber)])),
  };
}

/** A session's turns in all, counted in SQL: a user turn per row and an assistant turn per response. */
async function sessionTurnCount(db: Db, rowId: string, sessionId: string): Promise<number> {
  const [count] = await sqlOf(db).all<{ rows: number; answers: number }>(
    `SELECT COUNT(*) AS "rows", COUNT(s."response") AS "answers" FROM "DatasetRow" s
     WHERE s."datasetId" = (SELECT r."datasetId" FROM "DatasetRow" r WHERE r."id" = ?) AND s."sessionId" = ?`,
    [rowId, sessionId],
  );
  return Number(count?.rows ?? 0) + Number(count?.answers ?? 0);
}

/** A conversation as the row pages show it: its anchor (where its judges ran), its first turns, and its size. */
export type RowConversation = {
  /** The row the conversation's judges ran on: the session's first turn, or the row itself. */
  anchorRowId: string;
  sessionId: string | null;
  /** The first MAX_SHOWN_TURNS turns. */
  turns: ConversationTurn[];
  /** Every turn of the conversation, those not shown included. */
  totalTurns: number;
  /** The row number of each session row among the turns shown, for its link; empty for a row with no session. */
  rowNumbers: Map<string, number>;
};

/**
 * The conversation a row is part of, or null when it is part of none: a turn of a session (any turn), or a row
 * whose request carries earlier turns (the upload anchors it, DatasetRow.conversationAnchor).
 */
export async function readConversation(db: Db, rowId: string): Promise<RowConversation | null> {
  const row = await db.datasetRow.findUnique({
    where: { id: rowId },
    select: { id: true, sessionId: true, conversationAnchor: true, messages: true, response: true },
  });
  if (!row || (row.sessionId === null && !row.conversationAnchor)) return null;
  const { turns, total, rowNumbers } = await conversationTurnsOf(db, row, MAX_SHOWN_TURNS);
  return {
    // A session's first turn in the anchoring order is the row markSessionAnchors flagged.
    anchorRowId: row.sessionId === null ? row.id : (turns[0]?.rowId ?? row.id),
    sessionId: row.sessionId,
    turns,
    totalTurns: total,
    rowNumbers,
  };
}

const CONVERSATION_METRIC_NAMES = CONVERSATION_METRICS.map((metric) => metric.name);

export type ConversationJudgment = {
  metric: string;
  status: string;
  rating: string | null;
  score: number | null;
  passed: boolean | null;
  rationale: string | null;
  details: VerdictDetails | null;
  skipReason: string | null;
  errorMessage: string | null;
};

/**
 * A run's verdicts of the conversation judges on a conversation's anchor, in the catalogue's order: what every
 * turn's page shows of its conversation. Trial 1's, as the row page reads a run with trials.
 */
export async function readAnchorConversationJudgments(
  db: Db,
  runId: string,
  anchorRowId: string,
): Promise<ConversationJudgment[]> {
  const judgments = await db.judgmentItem.findMany({
    where: { runId, rowId: anchorRowId, trial: 1, metric: { in: CONVERSATION_METRIC_NAMES } },
    select: {
      metric: true,
      status: true,
      rating: true,
      score: true,
      passed: true,
      rationale: true,
      details: true,
      skipReason: true,
      errorMessage: true,
    },
  });
  return judgments
    .map((judgment) => ({ ...judgment, details: decodeVerdictDetails(judgment.details) }))
    .sort((a, b) => CONVERSATION_METRIC_NAMES.indexOf(a.metric) - CONVERSATION_METRIC_NAMES.indexOf(b.metric));
}

function parseMessages(json: string): { role: string; content: string }[] {
  const value: unknown = JSON.parse(json);
  if (!Array.isArray(value)) return [];
  return value.flatMap((message: unknown) =>
    typeof message === "object" &&
    message !== null &&
    "role" in message &&
    "content" in message &&
    typeof message.role === "string" &&
    typeof message.content === "string"
      ? [{ role: message.role, content: message.content }]
      : [],
  );
}
