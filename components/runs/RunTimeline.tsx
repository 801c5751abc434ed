import type { RunEventRecord } from "@/lib/db/runEvents";
import { formatCount, formatDateTime } from "@/components/ui/format";

/** A duration a person reads: "850 ms", "42 s", "12 min 5 s", "3 h 4 min". */
export function formatDuration(seconds: number): string {
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

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
