"use client";

import { useEffect, useState, useTransition } from "react";
import { estimateRejudge, type EstimateRejudgeResult } from "@/app/actions/estimateRejudge";
import { rejudgeRun } from "@/app/actions/rejudgeRun";
import { Button } from "@/components/ui/Button";
import { formatCount, formatUsd } from "@/lib/charts/format";

type Which = "errored" | "errored_or_failed";

/**
 * A re-judge button that asks first: it fetches the estimate (judgments, LLM
 * calls, tokens, cost) and sends nothing until the user confirms. For failed
 * judgments the user chooses whether the cached answers may be reused.
 */
export function RejudgeButton({ runId, which, label }: { runId: string; which: Which; label: string }) {
  const [open, setOpen] = useState(false);
  const [secondOpinion, setSecondOpinion] = useState(false);
  const [result, setResult] = useState<EstimateRejudgeResult | null>(null);
  const [loading, startLoading] = useTransition();

  useEffect(() => {
    if (!open) return;
    startLoading(async () => {
      setResult(await estimateRejudge({ runId, which, secondOpinion }));
    });
  }, [open, runId, which, secondOpinion]);

  if (!open)
    return (
      <Button type="button" onClick={() => setOpen(true)} aria-haspopup="dialog" data-testid={`rejudge-${which}`}>
        {label}…
      </Button>
    );
  const titleId = `rejudge-${which}-title`;
  return (
    <div
      role="dialog"
      aria-labelledby={titleId}
      data-testid="rejudge-confirmation"
      className="w-full max-w-xl rounded-lg border border-indigo-300 bg-white p-3 text-sm shadow"
    >
      <h2 id={titleId} className="font-medium text-slate-800">
        {label}?
      </h2>
      {which === "errored_or_failed" && (
        <label className="mt-2 flex items-center gap-2 text-slate-700">
          <input
            type="checkbox"
            checked={secondOpinion}
            onChange={(event) => setSecondOpinion(event.target.checked)}
            name="secondOpinionToggle"
          />
          Second opinion: don’t reuse cached answers
        </label>
      )}
      <div className="mt-2 min-h-16 text-slate-700" aria-live="polite" data-testid="rejudge-estimate">
        {loading || !result ? (
          <p className="text-slate-600">Estimating…</p>
        ) : result.ok ? (
          <EstimateText estimate={result.estimate} />
        ) : (
          <p className="text-red-800">{result.message}</p>
        )}
      </div>
      <form action={rejudgeRun} className="mt-3 flex items-center gap-2">
        <input type="hidden" name="runId" value={runId} />
        <input type="hidden" name="which" value={which} />
        <input type="hidden" name="confirm" value="rejudge" />
        {secondOpinion && <input type="hidden" name="secondOpinion" value="on" />}
        <Button
          variant="primary"
          disabled={loading || !result?.ok || result.estimate.judgments === 0}
          data-testid="rejudge-confirm"
        >
          Re-judge
        </Button>
        <Button type="button" onClick={() => setOpen(false)}>
          Keep the results
        </Button>
      </form>
    </div>
  );
}

function EstimateText({ estimate: e }: { estimate: Extract<EstimateRejudgeResult, { ok: true }>["estimate"] }) {
  if (e.judgments === 0) return <p>Nothing to re-judge.</p>;
  const parts = [`${formatCount(e.errored)} errored`];
  if (e.which === "errored_or_failed") parts.push(`${formatCount(e.failed)} failed`);
  const tokens = e.inputTokens + e.outputTokens;
  return (
    <>
      <p>
        <strong>{formatCount(e.judgments)} judgments</strong> will be redone ({parts.join(", ")}).
      </p>
      {e.heuristic ? (
        <p>The offline heuristic judge makes no LLM calls: this costs nothing.</p>
      ) : (
        <p>
          About <strong>{formatCount(e.llmCalls)} LLM calls</strong>
          {e.generations > 0 && ` (${formatCount(e.generations)} of them to generate responses again)`},{" "}
          {formatCount(tokens)} tokens ({formatCount(e.inputTokens)} in, {formatCount(e.outputTokens)} out),{" "}
          {e.costUsd === null ? "cost unknown (no price configured for this model)" : `about ${formatUsd(e.costUsd)}`}.
          {e.callsWithoutUsage > 0 &&
            ` Tokens of ${formatCount(e.callsWithoutUsage)} calls are unknown: their metric has no finished judgment to average.`}
        </p>
      )}
      {e.which === "errored_or_failed" && !e.heuristic && (
        <p className="mt-1 text-slate-600">
          {e.secondOpinion
            ? "Second opinion: failed judgments ask the model again, bypassing the cache (and replacing its answers)."
            : `Failed judgments reuse the cached answers (${formatCount(e.fromCache)} with no call), so their verdicts stay the same unless the prompt or model changed; errors are never cached and are asked again.`}
        </p>
      )}
      {e.withoutCalls > 0 && !e.heuristic && (
        <p className="mt-1 text-slate-600">
          {formatCount(e.withoutCalls)} deterministic judgments are recomputed without calls.
        </p>
      )}
    </>
  );
}
