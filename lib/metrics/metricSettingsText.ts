import type { StoredRunConfig } from "@/lib/db/runs/storedRun";
import { DEFAULT_BLEU_TYPE } from "./statistical/bleu";
import { DEFAULT_ROUGE_TYPE, ROUGE_TYPE_NAMES } from "./statistical/rouge";

/**
 * A run's metric settings that change its numbers, in words for the run page's header: which ROUGE type is
 * rouge's score, which BLEU is bleu's, and Mastra's context_relevance settings when the run set them.
 */
export function metricSettingsText(config: Pick<StoredRunConfig, "metrics" | "statistical" | "contextRelevance">) {
  const lines: string[] = [];
  if (config.metrics.includes("response/statistical/rouge"))
    lines.push(`rouge scored as ${ROUGE_TYPE_NAMES[config.statistical?.rougeType ?? DEFAULT_ROUGE_TYPE]} F1 (stemmed)`);
  if (config.metrics.includes("response/statistical/bleu")) {
    const bleu = config.statistical?.bleuType ?? DEFAULT_BLEU_TYPE;
    lines.push(`bleu scored as ${bleu === "cumulative4" ? "BLEU-4, smoothed" : `DeepEval's ${bleu}`}`);
  }
  if (config.contextRelevance && config.metrics.includes("retrieval/llm_judged/context_relevance"))
    lines.push(
      `context relevance: ${Object.entries(config.contextRelevance)
        .map(([key, value]) => `${key} ${value}`)
        .join(", ")}`,
    );
  return lines;
}
