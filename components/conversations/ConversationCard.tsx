import Link from "next/link";
import { metricLabel } from "@/components/runs/metricLabel";
import { VerdictChip } from "@/components/runs/VerdictChip";
import { Card } from "@/components/ui/Card";
import { formatInteger } from "@/lib/charts/format";
import type { ConversationJudgment, RowConversation } from "@/lib/db/datasets/conversationQueries";
import { blamesByTurn, type TurnBlame } from "./conversationBlame";
import { ConversationTurnItem, turnAnchor } from "./ConversationTurnItem";

/**
 * The conversation a row is part of: every turn in order (the first MAX_SHOWN_TURNS, with a count of the rest),
 * numbered as the conversation judges number them, this row's turns marked, other rows' turns linked to their
 * pages. On a run: each conversation judge's verdict (read from the anchor, where the judges ran) at the top,
 * and the turns any judge blamed highlighted with its reason beside them. A server component with no script.
 */
export function ConversationCard({
  conversation,
  rowId,
  rowsPath,
  judgments,
  note,
}: {
  conversation: RowConversation;
  /** The row this page is about. */
  rowId: string;
  /** Where the conversation's rows open: `${rowsPath}/${id}` (the run's row pages on a run, the dataset's on a dataset). */
  rowsPath: string;
  /** The run's conversation verdicts on the anchor; absent on the dataset's page. */
  judgments?: readonly ConversationJudgment[];
  note?: string;
}) {
  const { turns, totalTurns, sessionId, anchorRowId, rowNumbers } = conversation;
  const blames = blamesByTurn(judgments ?? []);
  const hidden = totalTurns - turns.length;
  // Blamed turns past the ones shown are still named, so a verdict's blame is never lost.
  const blamedBeyond = [...blames.entries()].filter(([number]) => number > turns.length).sort(([a], [b]) => a - b);
  const rowLabel = (id: string) => {
    const number = rowNumbers.get(id);
    return number === undefined ? "its first turn's row" : `row ${formatInteger(number)}`;
  };
  return (
    <Card
      title="Conversation"
      subtitle={
        <span data-testid="conversation-summary">
          {sessionId !== null
            ? `Session ${sessionId} · ${formatInteger(totalTurns)} turn${totalTurns === 1 ? "" : "s"}, in order of request time`
            : `This row's request with its earlier turns, and its response · ${formatInteger(totalTurns)} turns`}
          {note && <span className="block text-amber-900">{note}</span>}
        </span>
      }
      testId="conversation"
    >
      {sessionId !== null && anchorRowId !== rowId && (
        <p className="mb-3 rounded bg-sky-50 px-2 py-1 text-sm text-sky-950" data-testid="conversation-anchor-note">
          Judged with its conversation on its first turn:{" "}
          <Link href={`${rowsPath}/${anchorRowId}`} className="font-medium underline">
            {rowLabel(anchorRowId)}
          </Link>
          .
        </p>
      )}
      {judgments && judgments.length > 0 && (
        <ConversationVerdicts judgments={judgments} blames={blames} shownTurns={turns.length} />
      )}
      <ol className="space-y-2" aria-label="Turns in order" data-testid="conversation-turns">
        {turns.map((turn, index) => {
          const number = index + 1;
          const startsRow = sessionId !== null && (index === 0 || turns[index - 1].rowId !== turn.rowId);
          return (
            <ConversationTurnItem
              key={number}
              role={turn.role}
              content={turn.content}
              place={{
                number,
                thisRow: sessionId !== null && turn.rowId === rowId,
                otherRow:
                  startsRow && turn.rowId !== rowId
                    ? { href: `${rowsPath}/${turn.rowId}`, rowNumber: rowNumbers.get(turn.rowId) ?? null }
                    : null,
              }}
              blames={blames.get(number) ?? []}
              withBlameColumn={blames.size > 0}
            />
          );
        })}
      </ol>
      {hidden > 0 && (
        <p className="mt-3 text-sm text-slate-600" data-testid="conversation-more">
          {formatInteger(hidden)} more turn{hidden === 1 ? "" : "s"} not shown: the first {formatInteger(turns.length)}{" "}
          of {formatInteger(totalTurns)} are.
          {blamedBeyond.length > 0 &&
            ` Blamed among them: ${blamedBeyond.map(([number, of]) => `turn ${number} (${of.map((b) => b.judge).join(", ")})`).join("; ")}.`}
        </p>
      )}
    </Card>
  );
}

/** Each conversation judge's verdict in a line: chip (yes / no or the score, by pass or fail), name, turns blamed. */
function ConversationVerdicts({
  judgments,
  blames,
  shownTurns,
}: {
  judgments: readonly ConversationJudgment[];
  blames: ReadonlyMap<number, readonly TurnBlame[]>;
  shownTurns: number;
}) {
  const blamedBy = (metric: string) =>
    [...blames.entries()]
      .filter(([, of]) => of.some((blame) => blame.metric === metric))
      .map(([number]) => number)
      .sort((a, b) => a - b);
  return (
    <section aria-label="Conversation judges" className="mb-3 rounded-md bg-slate-50 p-2 ring-1 ring-slate-200">
      <p className="text-xs font-semibold text-slate-700">Conversation judges</p>
      <ul className="mt-1 grid gap-x-4 gap-y-1 md:grid-cols-2" data-testid="conversation-verdicts">
        {judgments.map((judgment) => {
          const blamed = blamedBy(judgment.metric);
          return (
            <li
              key={judgment.metric}
              className="flex min-w-0 items-center gap-2 text-sm"
              data-testid="conversation-verdict"
              data-metric={judgment.metric}
              data-status={judgment.status}
              data-passed={judgment.passed === null ? undefined : judgment.passed}
            >
              <VerdictChip
                verdict={judgment}
                metric={judgment.metric}
                title={judgment.skipReason ?? judgment.errorMessage ?? undefined}
              />
              <span className="min-w-0 truncate">{metricLabel(judgment.metric)}</span>
              {blamed.length > 0 && (
                <span className="shrink-0 text-xs text-red-800">
                  {blamed.map((number, i) => (
                    <span key={number}>
                      {i > 0 && ", "}
                      {number <= shownTurns ? (
                        <a href={`#${turnAnchor(number)}`} className="underline">
                          turn {number}
                        </a>
                      ) : (
                        `turn ${number}`
                      )}
                    </span>
                  ))}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
