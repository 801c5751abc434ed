import { Card } from "@/components/ui/Card";
import type { Trajectory } from "@/lib/traces/trajectory";
import { SpanLine, TIMELINE_COLUMNS } from "./SpanLine";
import { prepareTimeline } from "./timelineLayout";

/**
 * A row's MLflow trace as a timeline tree: one line per span in tree order, indented by depth, with its type,
 * name, a bar where it ran on the trace's time axis, its duration, tokens for model calls and errors in red;
 * each span's inputs and outputs collapsed under its line. A server component: the bars are CSS percentages
 * and the disclosure is native `<details>`, so it ships no script.
 */
export function TrajectoryCard({ trajectory, note }: { trajectory: Trajectory; note?: string }) {
  const timeline = prepareTimeline(trajectory);
  return (
    <Card
      title="Trajectory"
      subtitle={
        <span data-testid="trajectory-summary">
          {timeline.spanCounts}
          {timeline.total !== null && ` · ${timeline.total} in all`}
          {timeline.errorCount > 0 && (
            <span className="text-red-700">
              {" "}
              · {timeline.errorCount} failed span{timeline.errorCount === 1 ? "" : "s"}
            </span>
          )}
          {" · open a line for its inputs and outputs"}
          {note && <span className="block text-amber-900">{note}</span>}
        </span>
      }
      testId="trajectory"
    >
      <div
        className={`${TIMELINE_COLUMNS} border-b border-slate-200 px-1 pb-1 text-[11px] text-slate-500`}
        aria-hidden="true"
      >
        <span>span</span>
        <span className="flex justify-between tabular-nums">
          <span>0</span>
          {timeline.midpoint && <span className="hidden sm:inline">{timeline.midpoint}</span>}
          <span>{timeline.total ?? "no times"}</span>
        </span>
        <span className="text-right">duration</span>
      </div>
      <ol className="divide-y divide-slate-100" aria-label="Spans in tree order" data-testid="trajectory-spans">
        {timeline.lines.map((line, index) => (
          // By place: a malformed trace may repeat span ids, and the list is drawn once on the server, never reordered.
          <SpanLine key={index} line={line} compact={timeline.compact} />
        ))}
      </ol>
    </Card>
  );
}
