import type { StoredRunConfig } from "@/lib/db/runs/storedRun";
import { deepEvalSettings } from "@/lib/contract/deepEvalSettings";
import { toolCallSettings } from "@/lib/contract/toolCallSettings";
import { CONVERSATIONAL_GUIDELINES } from "@/lib/contract/conversationSettings";
import { DEFAULT_BLEU_TYPE } from "./statistical/bleu";
import { hasStrictMode } from "./strictMode";
import { DEFAULT_ROUGE_TYPE, ROUGE_TYPE_NAMES } from "./statistical/rouge";

/**
 * A run's metric settings that change its numbers, in words for the run page's header: which ROUGE type is
 * rouge's score, which BLEU is bleu's, Mastra's context_relevance settings when the run set them, and
 * DeepEval's options when the run has a DeepEval metric or G-Eval judge (all of them, defaults included,
 * since a DeepEval user compares against their own settings).
 */
export function metricSettingsText(
  config: Pick<
    StoredRunConfig,
    "metrics" | "statistical" | "contextRelevance" | "deepEval" | "toolCalls" | "conversation"
  >,
  options: { offline?: boolean } = {},
) {
  const lines: string[] = [];
  if (config.metrics.some(hasStrictMode)) lines.push(deepEvalText(config, options.offline === true));
  if (config.metrics.includes("response/statistical/rouge"))
    lines.push(`rouge scored as ${ROUGE_TYPE_NAMES[config.statistical?.rougeType ?? DEFAULT_ROUGE_TYPE]} F1 (stemmed)`);
  if (config.metrics.includes("response/statistical/bleu")) {
    const bleu = config.statistical?.bleuType ?? DEFAULT_BLEU_TYPE;
    lines.push(`bleu scored as ${bleu === "cumulative4" ? "BLEU-4, smoothed" : `DeepEval's ${bleu}`}`);
  }
  if (config.metrics.some((metric) => TOOL_CALL_SETTING_METRICS.has(metric))) lines.push(toolCallsText(config));
  const guidelines = config.conversation?.guidelines ?? [];
  if (config.metrics.includes(CONVERSATIONAL_GUIDELINES) && guidelines.length > 0)
    lines.push(`conversational guidelines: ${guidelines.map((guideline) => `“${guideline}”`).join(", ")}`);
  if (config.contextRelevance && config.metrics.includes("retrieval/llm_judged/context_relevance"))
    lines.push(
      `context relevance: ${Object.entries(config.contextRelevance)
        .map(([key, value]) => `${key} ${value}`)
        .join(", ")}`,
    );
  return lines;
}

/** The metrics that compare tool calls with expected_tool_calls, which the run's tool-call settings change. */
const TOOL_CALL_SETTING_METRICS = new Set([
  "agent/ground_truth/tool_call_exact_match",
  "agent/ground_truth/tool_correctness",
  "agent/llm_judged/tool_call_correctness",
]);

function toolCallsText(config: Pick<StoredRunConfig, "metrics" | "toolCalls">): string {
  const settings = toolCallSettings(config.toolCalls);
  const parts = [settings.considerOrdering ? "in the expected order" : "in any order"];
  if (config.metrics.includes("agent/ground_truth/tool_correctness"))
    parts.push(
      `tool_correctness ${settings.exactMatch ? "exact match" : "by expected call"}, comparing ${
        settings.evaluationParams.length === 0 ? "names only" : `names and ${settings.evaluationParams.join(", ")}`
      }`,
    );
  return `tool calls against expected_tool_calls: ${parts.join("; ")}`;
}

/** The offline judge makes no calls and writes no reasons or lists: only the options that change its scores are said. */
function deepEvalText(config: Pick<StoredRunConfig, "metrics" | "deepEval">, offline: boolean): string {
  const settings = deepEvalSettings(config.deepEval);
  const calls = settings.exact
    ? "DeepEval-exact (DeepEval's own calls, no list cap)"
    : settings.callStructure === "deepeval"
      ? "DeepEval's own calls"
      : "folded calls";
  const parts = [
    ...(offline ? [] : [calls]),
    `strict_mode ${settings.strictMode ? "on" : "off"}`,
    ...(offline ? [] : [`include_reason ${settings.includeReason ? "on" : "off"}`]),
    ...(offline || settings.exact ? [] : [`list cap ${settings.listCap}`]),
  ];
  if (config.metrics.includes("response/llm_judged/faithfulness"))
    parts.push(`penalize_ambiguous_claims ${settings.penalizeAmbiguousClaims ? "on" : "off"}`);
  if (settings.truthsExtractionLimit !== null && !offline)
    parts.push(`truths_extraction_limit ${settings.truthsExtractionLimit}`);
  if (config.metrics.includes("response/llm_judged/summarization") && !offline)
    parts.push(
      settings.assessmentQuestions
        ? `summarization: ${settings.assessmentQuestions.length} assessment questions of the run's own`
        : `summarization n ${settings.summarizationQuestions}`,
    );
  return `DeepEval: ${parts.join(", ")}`;
}
