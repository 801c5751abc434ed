import { formatInteger, formatUsd } from "@/lib/charts/format";
import { priceFor, type LlmPrices } from "@/lib/llm/pricing";
import { findMetric } from "@/lib/contract/metricCatalog";
import type { SpendingEstimate } from "@/lib/metrics/spendingEstimate";

/**
 * What the chosen set will spend before the run starts (lib/engine/plannedSpending.ts, the CLI's formula):
 * LLM calls at most (eligible rows × calls per row, per chunk when chunks are judged one by one; custom and
 * G-Eval judges with G-Eval's steps call together; 0 from a warm cache), tokens, and cost at the configured
 * prices, or why the cost is unknown.
 */
export function ExpectedCallsNote({
  estimate,
  offline,
  judgeModel,
  generationModel,
  prices,
}: {
  estimate: SpendingEstimate;
  offline: boolean;
  judgeModel: string;
  /** null when the run does not generate; "" while its model is not named yet. */
  generationModel: string | null;
  prices: LlmPrices;
}) {
  const builtIn = estimate.perMetric.filter((m) => findMetric(m.metric));
  const { generationCalls } = estimate;
  const judgeCalls = estimate.llmCalls - generationCalls;
  const custom = judgeCalls - builtIn.reduce((sum, m) => sum + m.calls, 0);
  const parts = [
    ...builtIn.map((m) => `${m.metric.split("/").pop()} ${formatInteger(m.calls)}`),
    ...(custom > 0 ? [`custom ${formatInteger(custom)}`] : []),
    ...(generationCalls > 0 ? [`generation ${formatInteger(generationCalls)}`] : []),
  ];
  const unpriced = [
    ...(judgeCalls > 0 && !priceFor(judgeModel, prices) ? [judgeModel] : []),
    ...(generationCalls > 0 && generationModel !== null && !priceFor(generationModel, prices)
      ? [generationModel || "the generation model (name it)"]
      : []),
  ];
  return (
    <div className="space-y-0.5 text-xs text-slate-700">
      <p data-testid="expected-calls">
        {offline && generationCalls === 0 ? (
          "Expected LLM calls: 0 (the offline heuristic judge makes none)."
        ) : (
          <>
            Expected LLM calls: <strong className="tabular-nums">{formatInteger(estimate.llmCalls)}</strong> at most
            {parts.length > 1 && <> ({parts.join(", ")})</>}; answers already in the judge cache cost none.
          </>
        )}
      </p>
      <p data-testid="spending-estimate">
        {estimate.llmCalls === 0 ? (
          "Estimated tokens and cost: none."
        ) : (
          <>
            About <span className="tabular-nums">{formatInteger(estimate.inputTokens)}</span> input and{" "}
            <span className="tabular-nums">{formatInteger(estimate.outputTokens)}</span> output tokens;{" "}
            {estimate.costUsd === null ? (
              <>cost unknown: no price configured for {unpriced.join(" or ")} (ASSAY_LLM_PRICES).</>
            ) : (
              <>
                about <strong className="tabular-nums">{formatUsd(estimate.costUsd)}</strong> at the configured prices.
              </>
            )}
          </>
        )}
      </p>
    </div>
  );
}
