import { argumentsText } from "@/components/traces/callText";
import { PlainTextBlock } from "@/components/traces/PlainTextBlock";
import { formatSpanDuration } from "@/components/traces/timelineLayout";
import { Card } from "@/components/ui/Card";
import { formatInteger } from "@/lib/charts/format";
import type { ToolCall } from "@/lib/contract/toolCalls";
import {
  describeTrajectoryDiff,
  diffTrajectories,
  type TrajectoryDiffKind,
  type TrajectorySideCounts,
} from "@/lib/traces/trajectoryDiff";

type Side = { label: string; runName: string; calls: ToolCall[] | null };

/** The row's columns: the kind's mark, the baseline's call, the candidate's. */
const ROW_COLUMNS = "grid grid-cols-[1.25rem_minmax(0,1fr)_minmax(0,1fr)] gap-x-2";

/**
 * How each kind of line reads: a mark in the gutter (so the kind does not rest on colour alone), its words for
 * assistive technology, and the cells' colours, red for what only the baseline did and green for what only the
 * candidate did, as the compared responses mark removed and added words.
 */
const KIND: Record<TrajectoryDiffKind, { mark: string; words: string; cell: string }> = {
  same: { mark: "=", words: "same call", cell: "border-slate-200 bg-white" },
  other_arguments: { mark: "≠", words: "other arguments", cell: "border-amber-300 bg-amber-50" },
  only_baseline: { mark: "−", words: "only the baseline", cell: "border-rose-200 bg-rose-50" },
  only_candidate: { mark: "+", words: "only the candidate", cell: "border-emerald-200 bg-emerald-50" },
};

/**
 * "What each version did": the two versions' tool calls on this request side by side, lined up so that calls
 * both made alike share a line (lib/traces/trajectoryDiff.ts), with where they first part marked and the
 * whole comparison in one line above. Nothing when neither side called a tool. A server component: long
 * arguments open with native `<details>`, so it ships no script.
 */
export function ComparedTrajectories({
  baseline,
  candidate,
  notes = [],
}: {
  baseline: Side;
  candidate: Side;
  /** Said above the lines (whose calls these are, when a run generated its own responses). */
  notes?: string[];
}) {
  if (!(baseline.calls?.length || candidate.calls?.length)) return null;
  const diff = diffTrajectories(baseline.calls, candidate.calls);
  const block = divergenceBlock(diff.rows, diff.firstDivergence);
  return (
    <Card
      title="What each version did"
      subtitle={
        <span data-testid="trajectory-diff-summary">
          {describeTrajectoryDiff(diff, baseline.calls, candidate.calls)}
        </span>
      }
      testId="compared-trajectories"
    >
      <div className="space-y-2">
        {notes.map((note) => (
          <p
            key={note}
            className="rounded bg-amber-50 px-2 py-1 text-xs text-amber-900"
            data-testid="trajectory-diff-note"
          >
            {note}
          </p>
        ))}
        <p className="text-[11px] text-slate-600">
          = same call · ≠ other arguments · <span className="text-rose-800">− only the baseline</span> ·{" "}
          <span className="text-emerald-800">+ only the candidate</span>
        </p>
        <div className={`${ROW_COLUMNS} border-b border-slate-200 pb-1.5`}>
          <span aria-hidden="true" />
          <ColumnHeading side={baseline} counts={diff.counts.baseline} testId="trajectory-diff-baseline" />
          <ColumnHeading side={candidate} counts={diff.counts.candidate} testId="trajectory-diff-candidate" />
        </div>
        <ol aria-label="Tool calls of both versions, lined up" data-testid="trajectory-diff-rows">
          {diff.rows.map((row, index) => {
            const first = index === diff.firstDivergence;
            const style = KIND[row.kind];
            return (
              // By place: the lines are drawn once on the server, never reordered.
              <li
                key={index}
                className={`${ROW_COLUMNS} items-start py-[3px] ${blockEdges(index, block)}`}
                data-testid="trajectory-diff-row"
                data-kind={row.kind}
                data-first-divergence={first ? "true" : undefined}
              >
                {first && (
                  <p className="col-span-3 pb-1 text-xs text-amber-900" data-testid="first-divergence">
                    <span className="mr-1.5 rounded bg-amber-700 px-1.5 py-0.5 text-[11px] font-semibold text-white">
                      ↓ first difference
                    </span>
                    at call {formatInteger(index + 1)}
                  </p>
                )}
                <span className="pt-1.5 text-center font-mono text-sm font-semibold text-slate-600" title={style.words}>
                  <span aria-hidden="true">{style.mark}</span>
                  <span className="sr-only">{style.words}</span>
                </span>
                <CallCell call={at(baseline.calls, row.baseline)} number={row.baseline} cell={style.cell} />
                <CallCell call={at(candidate.calls, row.candidate)} number={row.candidate} cell={style.cell} />
              </li>
            );
          })}
        </ol>
      </div>
    </Card>
  );
}

/**
 * The lines from the first difference until the two meet again on a same call: framed together, so the
 * summary's "get_bucket vs list_buckets" is read in one frame even when the two calls sit on two lines.
 */
function divergenceBlock(
  rows: { kind: TrajectoryDiffKind }[],
  first: number | null,
): { from: number; to: number } | null {
  if (first === null) return null;
  const next = rows.findIndex((row, index) => index > first && row.kind === "same");
  return { from: first, to: next === -1 ? rows.length - 1 : next - 1 };
}

/** A line's part of the frame: sides on every line of the block, top on its first, bottom on its last. */
function blockEdges(index: number, block: { from: number; to: number } | null): string {
  if (block === null || index < block.from || index > block.to) return "";
  // The 2 px border and 2 px padding make up the 4 px pulled out, so the columns stay on the other lines'.
  return [
    "-mx-1 border-x-2 border-amber-500 bg-amber-50/60 px-0.5",
    index === block.from ? "mt-1 rounded-t-md border-t-2 pt-1" : "",
    index === block.to ? "mb-1 rounded-b-md border-b-2 pb-1" : "",
  ].join(" ");
}

function at(calls: ToolCall[] | null, index: number | null): ToolCall | null {
  return index === null ? null : (calls?.[index] ?? null);
}

/** "A (baseline): Agent v1", then "3 calls · 1 failed · 2.40 s in tools". */
function ColumnHeading({ side, counts, testId }: { side: Side; counts: TrajectorySideCounts | null; testId: string }) {
  return (
    <div className="min-w-0" data-testid={testId}>
      <h3 className="break-words text-xs font-semibold text-slate-800">
        {side.label}: {side.runName}
      </h3>
      <p className="text-[11px] text-slate-600">
        {counts === null ? (
          "no tool calls recorded"
        ) : (
          <>
            {formatInteger(counts.calls)} call{counts.calls === 1 ? "" : "s"}
            {counts.errors > 0 && <span className="text-red-700"> · {formatInteger(counts.errors)} failed</span>}
            {counts.durationMs !== null && ` · ${formatSpanDuration(counts.durationMs)} in tools`}
          </>
        )}
      </p>
    </div>
  );
}

/** One call as its side made it: number, name, duration, compact arguments, its error in red; a gap when none. */
function CallCell({ call, number, cell }: { call: ToolCall | null; number: number | null; cell: string }) {
  if (call === null || number === null)
    return (
      <div className="self-stretch rounded-md border border-dashed border-slate-200">
        <span className="sr-only">no call here</span>
      </div>
    );
  const failed = call.error !== null;
  return (
    <div
      className={`min-w-0 rounded-md border px-2 py-1 ${failed ? "border-red-300 bg-red-50" : cell}`}
      data-testid="trajectory-diff-call"
      data-failed={failed ? "true" : undefined}
    >
      {/* A narrow screen wraps a long name rather than cutting it: the name is what the reader compares. */}
      <div className="flex min-w-0 flex-wrap items-baseline gap-x-1.5">
        <span className="shrink-0 font-mono text-[11px] text-slate-600">#{formatInteger(number + 1)}</span>
        <code
          className={`min-w-0 break-all font-mono text-sm font-medium ${failed ? "text-red-800" : "text-slate-900"}`}
          data-testid="call-name"
        >
          {call.name}
        </code>
        {call.durationMs !== null && (
          <span className="ml-auto shrink-0 text-[11px] tabular-nums text-slate-600">
            {formatSpanDuration(call.durationMs)}
          </span>
        )}
      </div>
      <CompactArguments args={call.arguments} />
      {failed && (
        <p className="mt-0.5 whitespace-pre-wrap break-words text-xs font-medium text-red-700" data-testid="call-error">
          {call.error}
        </p>
      )}
    </div>
  );
}

/** One line of compact JSON; a long one cut, in full when opened (the drill-down's rule, callText.ts). */
function CompactArguments({ args }: { args: Record<string, unknown> | null }) {
  const text = argumentsText(args);
  if (text === null) return <p className="text-xs italic text-slate-600">no arguments</p>;
  if (text.full === null)
    return (
      <code className="block break-all font-mono text-xs text-slate-700" data-testid="call-arguments">
        {text.line}
      </code>
    );
  return (
    <details className="text-xs" data-testid="call-arguments">
      <summary className="cursor-pointer break-all font-mono text-slate-700">{text.line}</summary>
      <div className="mt-1">
        <PlainTextBlock label="Arguments" text={text.full} />
      </div>
    </details>
  );
}
