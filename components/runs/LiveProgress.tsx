"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { ProgressBar } from "@/components/ui/ProgressBar";

type Counts = { pending: number; running: number; done: number; error: number; skipped: number; total: number };
export type ProgressSnapshot = { status: string; judgments: Counts; generations: Counts };

const ACTIVE = new Set(["pending", "running"]);

/** Polls the run's item counts every second while it is active; refreshes the page when it finishes. */
export function LiveProgress({ runId, initial }: { runId: string; initial: ProgressSnapshot }) {
  const router = useRouter();
  const [snapshot, setSnapshot] = useState(initial);
  useEffect(() => {
    if (!ACTIVE.has(snapshot.status)) return;
    // poll catches its own errors; the timer only starts it.
    const poll = async () => {
      try {
        const response = await fetch(`/api/runs/${runId}/progress`, { cache: "no-store" });
        if (!response.ok) return;
        const next = (await response.json()) as ProgressSnapshot;
        setSnapshot(next);
        if (!ACTIVE.has(next.status)) router.refresh();
        else if (next.judgments.done + next.judgments.error > snapshot.judgments.done + snapshot.judgments.error)
          router.refresh();
      } catch {
        // a missed poll is retried on the next tick
      }
    };
    const timer = setTimeout(() => void poll(), 1000);
    return () => clearTimeout(timer);
  }, [runId, router, snapshot]);

  const { judgments, generations } = snapshot;
  const toJudge = judgments.total - judgments.skipped;
  const judged = judgments.done + judgments.error;
  const generating = generations.total > 0 && generations.pending > 0;
  const fraction = generating
    ? (generations.total - generations.pending) / generations.total
    : toJudge === 0
      ? 1
      : judged / toJudge;
  return (
    <div data-testid="run-progress" aria-live="polite">
      <ProgressBar value={fraction} label="Run progress" tone={ACTIVE.has(snapshot.status) ? "indigo" : "emerald"} />
      <p className="mt-1 text-xs text-slate-600 tabular-nums">
        {generating
          ? `Generating responses: ${generations.total - generations.pending} of ${generations.total}`
          : `${judged.toLocaleString("en-US")} of ${toJudge.toLocaleString("en-US")} judgments`}
        {judgments.error > 0 && <span className="text-red-700"> · {judgments.error} errors</span>}
        {judgments.skipped > 0 && <span> · {judgments.skipped.toLocaleString("en-US")} skipped (inputs missing)</span>}
        {" · "}
        <span data-testid="run-status">{snapshot.status}</span>
      </p>
    </div>
  );
}
