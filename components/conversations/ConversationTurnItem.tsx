import Link from "next/link";
import { InertMarkdown } from "@/components/content/InertMarkdown";
import { formatInteger } from "@/lib/charts/format";
import type { TurnBlame } from "./conversationBlame";

const ROLE_STYLE: Record<string, string> = {
  user: "border-sky-200 bg-sky-50",
  assistant: "border-slate-200 bg-white",
  system: "border-amber-200 bg-amber-50",
  tool: "border-violet-200 bg-violet-50",
};

/** Past this many characters (or lines) a turn opens on a preview: a pasted document must not push the rest away. */
const LONG_TURN_CHARS = 1200;
const LONG_TURN_LINES = 16;
const PREVIEW_CHARS = 320;

export type TurnPlace = {
  number: number;
  /** The turn is one of the row this page is about (a session's turn). */
  thisRow: boolean;
  /** The first turn of another session row: where that row's page is linked, and its number. */
  otherRow: { href: string; rowNumber: number | null } | null;
};

/** The id a turn's element carries, so a verdict can link to the turn it blames without any script. */
export function turnAnchor(number: number): string {
  return `conversation-turn-${number}`;
}

/**
 * One turn of a conversation: its number and role, its content rendered inert (InertMarkdown, as ChatTranscript
 * does), whether it is this row's or a link to the row it came from, and the judges that blamed it beside it
 * (a red left border). A long turn opens on a preview under a native `<details>`: no script.
 */
export function ConversationTurnItem({
  role,
  content,
  place,
  blames,
  withBlameColumn,
}: {
  role: string;
  content: string;
  place: TurnPlace;
  blames: readonly TurnBlame[];
  withBlameColumn: boolean;
}) {
  const blamed = blames.length > 0;
  return (
    <li
      id={turnAnchor(place.number)}
      className={`scroll-mt-16 ${withBlameColumn ? "gap-2 lg:grid lg:grid-cols-[minmax(0,1fr)_18rem]" : ""}`}
      data-testid="conversation-turn"
      data-turn={place.number}
      data-role={role}
      data-this-row={place.thisRow}
      data-blamed={blamed}
    >
      <div
        data-testid="turn-box"
        className={`min-w-0 rounded-md border px-3 py-2 ${ROLE_STYLE[role.toLowerCase()] ?? "border-slate-200 bg-slate-50"} ${role.toLowerCase() === "assistant" ? "ml-8" : ""} ${blamed ? "border-l-4 border-l-red-600" : ""} ${place.thisRow ? "ring-2 ring-sky-300" : ""}`}
      >
        <div className="mb-0.5 flex flex-wrap items-center gap-2 text-[11px] font-medium uppercase tracking-wide text-slate-600">
          <span className="tabular-nums">turn {formatInteger(place.number)}</span>
          <span>{role}</span>
          {place.thisRow && (
            <span className="rounded bg-sky-700 px-1 text-[10px] normal-case text-white" data-testid="this-row">
              this row
            </span>
          )}
          {place.otherRow && (
            <Link
              href={place.otherRow.href}
              className="normal-case text-sky-800 underline hover:text-sky-900"
              data-testid="turn-row-link"
            >
              {place.otherRow.rowNumber === null ? "its row" : `row ${formatInteger(place.otherRow.rowNumber)}`}
            </Link>
          )}
        </div>
        <TurnContent content={content} />
      </div>
      {blamed && (
        <ul
          className="mt-1 space-y-1 lg:mt-0"
          aria-label={`Judges that blamed turn ${place.number}`}
          data-testid="turn-blames"
        >
          {blames.map((blame) => (
            <li
              key={blame.metric}
              className="rounded bg-red-50 px-2 py-1 text-xs text-red-900 ring-1 ring-red-200"
              data-testid="turn-blame"
              data-metric={blame.metric}
            >
              <span className="font-semibold">{blame.judge}</span>: {blame.reason}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

function TurnContent({ content }: { content: string }) {
  if (!content.trim()) return <span className="text-xs italic text-slate-500">(no text content)</span>;
  const long = content.length > LONG_TURN_CHARS || content.split("\n").length > LONG_TURN_LINES;
  if (!long) return <InertMarkdown text={content} />;
  return (
    <details className="group" data-testid="long-turn">
      <summary className="cursor-pointer list-none">
        {/* The preview is plain text (React escapes it); the whole turn, once open, is rendered inert. */}
        <span className="block whitespace-pre-wrap break-words text-sm text-slate-800 group-open:hidden">
          {content.slice(0, PREVIEW_CHARS).trimEnd()}…
        </span>
        <span className="text-xs text-sky-800 underline">
          <span className="group-open:hidden">Show the whole turn ({formatInteger(content.length)} characters)</span>
          <span className="hidden group-open:inline">Show less</span>
        </span>
      </summary>
      <InertMarkdown text={content} />
    </details>
  );
}
