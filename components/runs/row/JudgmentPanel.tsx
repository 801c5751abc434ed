import type { ReactNode } from "react";
import { metricLabel } from "@/components/runs/metricLabel";
import { VerdictChip } from "@/components/runs/VerdictChip";
import { VerdictDetails } from "./VerdictDetails";
import type { VerdictDetails as Details } from "@/lib/contract/judgeResult";
import { formatInteger, formatPercent, formatScore, formatUsd } from "@/lib/charts/format";
import { isScoreMetric } from "@/lib/contract/aggregates";
import { scoreDirection } from "@/lib/contract/metricCatalog";
import { breakAtSeparators } from "@/components/ui/MetricName";

export type JudgmentView = {
  metric: string;
  status: string;
  rating: string | null;
  score: number | null;
  threshold: number | null;
  passed: boolean | null;
  rationale: string | null;
  errorMessage: string | null;
  skipReason: string | null;
  judgeProvider: string | null;
  judgeModel: string | null;
  promptVersion: string | null;
  promptHash: string | null;
  cacheHit: boolean;
  attempts: number;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
  /** A score metric's intermediate verdicts (DeepEval, Mastra), when the page loaded them. */
  details?: Details | null;
};

/**
 * One judge's result on a row: verdict, rationale or error, and where it came from (provider, model, prompt
 * version and hash). `children` go at its foot (a run with trials: every trial's verdict).
 */
export function JudgmentPanel({ judgment, children }: { judgment: JudgmentView; children?: ReactNode }) {
  return (
    <li
      className="rounded-md border border-slate-200 bg-white p-3"
      data-testid="judgment"
      data-metric={judgment.metric}
    >
      <div className="flex flex-wrap items-center gap-2">
        <VerdictChip verdict={judgment} metric={judgment.metric} />
        <span className="font-medium">{breakAtSeparators(metricLabel(judgment.metric))}</span>
        <code className="font-mono text-[11px] text-slate-400">{judgment.metric}</code>
        {judgment.threshold !== null && judgment.score !== null && (
          <span className="text-xs text-slate-500">
            pass mark{" "}
            {isScoreMetric(judgment.metric)
              ? `${formatScore(judgment.threshold)}${scoreDirection(judgment.metric) === "lower" ? " (at most; lower is better)" : ""}`
              : formatPercent(judgment.threshold, 0)}
          </span>
        )}
      </div>
      {judgment.status === "skipped" && <p className="mt-1 text-sm text-slate-500">Skipped: {judgment.skipReason}</p>}
      {judgment.errorMessage && (
        <p className="mt-1 rounded bg-red-50 px-2 py-1 text-sm text-red-800">{judgment.errorMessage}</p>
      )}
      {judgment.rationale && (
        <p className="mt-1 whitespace-pre-wrap text-sm text-slate-700" data-testid="rationale">
          {judgment.rationale}
        </p>
      )}
      {judgment.details && <VerdictDetails details={judgment.details} metric={judgment.metric} />}
      {judgment.judgeProvider && (
        <p className="mt-1.5 text-[11px] text-slate-400">
          {judgment.judgeProvider === "heuristic" ? "offline heuristic judge" : judgment.judgeProvider} ·{" "}
          {judgment.judgeModel} · prompt {judgment.promptVersion}
          {judgment.promptHash && (
            <>
              {" "}
              · hash <code title={judgment.promptHash}>{judgment.promptHash.slice(0, 12)}</code>
            </>
          )}
          {judgment.cacheHit && " · from cache"}
          {judgment.attempts > 1 && ` · ${formatInteger(judgment.attempts)} attempts`}
          {judgment.inputTokens !== null &&
            ` · ${formatInteger(judgment.inputTokens)}+${formatInteger(judgment.outputTokens ?? 0)} tokens`}
          {judgment.costUsd !== null && ` · ${formatUsd(judgment.costUsd)}`}
        </p>
      )}
      {children}
    </li>
  );
}
