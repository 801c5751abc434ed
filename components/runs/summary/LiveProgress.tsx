"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { ProgressBar } from "@/components/ui/ProgressBar";
import { formatCount, formatInteger } from "@/lib/charts/format";
import { runStatusLabel } from "@/components/runs/RunStatusBadge";

type Counts = { pending: number; running: number; done: number; error: number; skipped: number; total: number };
/** rejudge: while a re-judge is pending or running, how many judgments it redoes and how many are finished. */
export type ProgressSnapshot = {
  status: string;
  judgments: Counts;
  generations: Counts;
  rejudge: { total: number; finished: number } | null;
};

const ACTIVE = new Set(["pending", "running"]);

/**
 * After this long without an answer from the server, the page says so: an
 * open page of a run whose server died must not go on saying "running".
 */
export const STALE_AFTER_MS = 5_000;

/**
 * A poll unanswered this long is given up: a hung server (the connection open,
 * no answer) must count as a missed poll, or the notice above never comes.
 */
export const POLL_TIMEOUT_MS = 4_000;

/** Polls the run's item counts every second while it is active; refreshes the page when it finishes. */
export function LiveProgress({ runId, initial }: { runId: string; initial: ProgressSnapshot }) {
  const router = useRouter();
  const [snapshot, setSnapshot] = useState(initial);
  // When the server last answered, and each poll's turn: a failed poll changes no snapshot, yet the next must come.
  const [lastHeard, setLastHeard] = useState(() => Date.now());
  const [stale, setStale] = useState(false);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!ACTIVE.has(snapshot.status)) return;
    // poll catches its own errors; the timer only starts it.
    const poll = async () => {
      try {
        const response = await fetch(`/api/runs/${runId}/progress`, {
          cache: "no-store",
          signal: AbortSignal.timeout(POLL_TIMEOUT_MS),
        });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const next = (await response.json()) as ProgressSnapshot;
        setLastHeard(Date.now());
        setStale(false);
        setSnapshot(next);
        if (!ACTIVE.has(next.status)) router.refresh();
        else if (next.judgments.done + next.judgments.error > snapshot.judgments.done + snapshot.judgments.error)
          router.refresh();
      } catch {
        // A missed poll is retried on the next tick; missed for long, the page says updates stopped.
        if (Date.now() - lastHeard >= STALE_AFTER_MS) setStale(true);
      } finally {
        setTick((n) => n + 1);
      }
    };
    const timer = setTimeout(() => void poll(), 1000);
    return () => clearTimeout(timer);
  }, [runId, router, snapshot, tick, lastHeard]);

  const { judgments, generations } = snapshot;
  const toJudge = judgments.total - judgments.skipped;
  const judged = judgments.done + judgments.error;
  const generating = generations.total > 0 && generations.pending > 0;
  // A re-judge counts only the judgments it redoes: the rest were finished before it began.
  const rejudge = ACTIVE.has(snapshot.status) ? snapshot.rejudge : null;
  const fraction = generating
    ? (generations.total - generations.pending) / generations.total
    : rejudge
      ? rejudge.total === 0
        ? 1
        : rejudge.finished / rejudge.total
      : toJudge === 0
        ? 1
        : judged / toJudge;
  return (
    <div data-testid="run-progress" aria-live="polite">
      <ProgressBar
        value={fraction}
        label={rejudge ? "Re-judge progress" : "Run progress"}
        tone={ACTIVE.has(snapshot.status) ? "indigo" : "emerald"}
      />
      <p className="mt-1 text-xs text-slate-600 tabular-nums">
        {generating
          ? `Generating responses: ${formatInteger(generations.total - generations.pending)} of ${formatInteger(generations.total)}`
          : rejudge
            ? `${formatCount(rejudge.finished)} of ${formatCount(rejudge.total)} re-judged`
            : `${formatCount(judged)} of ${formatCount(toJudge)} judgments`}
        {judgments.error > 0 && <span className="text-red-700"> · {formatCount(judgments.error)} errors</span>}
        {judgments.skipped > 0 && <span> · {formatCount(judgments.skipped)} skipped (inputs missing)</span>}
        {" · "}
        <span data-testid="run-status">{runStatusLabel(snapshot.status, snapshot.rejudge?.total)}</span>
      </p>
      {stale && ACTIVE.has(snapshot.status) && (
        <p className="mt-1 text-xs text-amber-800" role="status" data-testid="run-updates-stopped">
          No updates since {clockTime(lastHeard)}: the server may have stopped. Reload the page to check.
        </p>
      )}
    </div>
  );
}

/** HH:MM:SS in the reader's time zone, the time shown in their own clock. */
function clockTime(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
}
