import type { TokenUsage } from "@/lib/contract/judgeResult";

/** USD per one million tokens, as providers publish them. */
export type ModelPrice = { input: number; output: number };
/** Keyed by model (or Azure deployment) name; comes from ASSAY_LLM_PRICES. */
export type LlmPrices = Record<string, ModelPrice>;

/**
 * Finds the price of a model. Exact names win; otherwise a dated snapshot
 * ("gpt-4.1-mini-2025-04-14") uses its family's price ("gpt-4.1-mini"), the
 * longest matching family first so "gpt-4.1-mini" beats "gpt-4.1".
 */
export function priceFor(model: string, prices: LlmPrices): ModelPrice | null {
  if (Object.hasOwn(prices, model)) return prices[model];
  let best: string | null = null;
  for (const name of Object.keys(prices)) {
    if (model.startsWith(`${name}-`) && (best === null || name.length > best.length)) best = name;
  }
  return best === null ? null : prices[best];
}

/**
 * Cost of one call or of a whole run. Null, not 0, when the model has no
 * price: the UI must show "unknown", never a reassuring "$0.00".
 */
export function costUsd(model: string, usage: TokenUsage | null, prices: LlmPrices): number | null {
  if (!usage) return null;
  const price = priceFor(model, prices);
  if (!price) return null;
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
}
