import type { Db } from "@/lib/db/client";
import type { WorkerKind } from "@/lib/db/work/workers";
import type { ItemCounts } from "@/lib/db/runs/runQueries";
import type { JudgeBackend } from "@/lib/judges/judgeBackend";
import type { Limiter } from "@/lib/llm/concurrencyLimiter";
import type { TokenUsage } from "@/lib/contract/judgeResult";
import type { LlmClient } from "@/lib/llm/types";

/** What the engine needs from outside; the app, the CLI and tests each build their own. */
export type EngineDeps = {
  db: Db;
  /** Judges for LLM-judged metrics (a model, or the offline heuristics). */
  judge: JudgeBackend;
  /** The chat client for runs that generate responses. */
  llm?: LlmClient | null;
  costOf?: (model: string, usage: TokenUsage | null) => number | null;
  onProgress?: (progress: RunProgressEvent) => void;
  /**
   * What this process is, for the runs page's list of workers: the web server (web-align: one that judges no
   * run, ASSAY_WEB_WORKER=0, but makes the Align page's calls), `npm run worker` or a CLI run.
   */
  workerKind?: WorkerKind;
  /** The run's limit on LLM calls in flight, when there is one (exposed so tests and benchmarks can read its high-water mark). */
  limiter?: Limiter | null;
  /** Lease length; renewed every second while the coordinator lives. Defaults to the worker timeout; tests shorten it. */
  leaseTtlMs?: number;
  /** Told when this runner picks up a run that was interrupted (the event itself is already stored). */
  onResumed?: (resume: { runId: string; pendingJudgments: number }) => void;
  /** True once the process is shutting down: the run is left, its claims back in the pool, for another worker. */
  stopRequested?: () => boolean;
};

export type RunProgressEvent = {
  runId: string;
  phase: "generating" | "judging";
  judgments: ItemCounts;
  generations: ItemCounts;
};
