import type { RunEventRecord } from "@/lib/db/runs/runEvents";
import { formatCount, formatDateTime, formatDuration } from "@/lib/charts/format";

/**
 * Working time (the sum of the spans runners actually worked) beside the wall-clock span
 * from start to finish (or now), which also holds the time a crashed run waited to be resumed.
 */
export function RunDuration({
  startedAt,
  finishedAt,
  workingMs,
}: {
  startedAt: Date | null;
  finishedAt: Date | null;
  workingMs: number;
}) {
  if (!startedAt) return null;
  const wallSeconds = ((finishedAt ?? new Date()).getTime() - startedAt.getTime()) / 1000;
  return (
    <span data-testid="run-duration">
      · working time {workingMs > 0 ? formatDuration(workingMs / 1000) : "—"} (wall clock {formatDuration(wallSeconds)})
    </span>
  );
}

/** The interruptions and re-judges of a run, each with its time and how much was pending. */
export function RunTimeline({ events }: { events: RunEventRecord[] }) {
  const notable = events.filter((event) => event.kind === "resumed" || event.kind === "rejudge_started");
  if (notable.length === 0) return null;
  return (
    <ul className="mt-2 space-y-0.5 text-xs text-slate-700" data-testid="run-events" aria-label="Run history">
      {notable.map((event, index) => (
        <li key={index} className={event.kind === "resumed" ? "text-amber-900" : undefined}>
          {event.kind === "resumed"
            ? `Resumed at ${formatDateTime(event.at)} after an interruption; ${formatCount(event.pendingJudgments)} judgments were pending.`
            : `Re-judge started at ${formatDateTime(event.at)}: ${formatCount(event.pendingJudgments)} judgments to redo.`}
        </li>
      ))}
    </ul>
  );
}
