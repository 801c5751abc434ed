"use client";

import { DEFAULT_CONTEXT_RELEVANCE_SETTINGS } from "@/lib/contract/contextRelevanceSettings";
import { BLEU_TYPES, ROUGE_TYPES } from "@/lib/contract/statisticalSettings";
import { DEFAULT_BLEU_TYPE } from "@/lib/metrics/statistical/bleu";
import { DEFAULT_ROUGE_TYPE, ROUGE_TYPE_NAMES } from "@/lib/metrics/statistical/rouge";
import type { CallChoiceProps } from "./callChoice";
import { DeepEvalSettingsFields } from "./DeepEvalSettingsFields";
import { ToolCallSettingsFields } from "./ToolCallSettingsFields";
import { ConversationSettingsFields } from "./ConversationSettingsFields";
import type { MetricOption } from "./runFormTypes";

const CONTEXT_RELEVANCE = "retrieval/llm_judged/context_relevance";
const ROUGE = "response/statistical/rouge";
const BLEU = "response/statistical/bleu";
const BLEU_NAMES: Record<(typeof BLEU_TYPES)[number], string> = {
  cumulative4: "BLEU-4, smoothed (standard)",
  bleu1: "bleu1 (DeepEval's default)",
  bleu2: "bleu2 (DeepEval)",
  bleu3: "bleu3 (DeepEval)",
  bleu4: "bleu4 (DeepEval)",
};

const PENALTIES: { key: keyof typeof DEFAULT_CONTEXT_RELEVANCE_SETTINGS; label: string; max: number }[] = [
  { key: "unusedHighRelevanceContext", label: "Penalty per unused high-relevance piece", max: 1 },
  { key: "missingContextPerItem", label: "Penalty per missing item", max: 1 },
  { key: "maxMissingContextPenalty", label: "Cap of the missing penalty", max: 1 },
  { key: "scale", label: "Scale", max: 1000 },
];

const INPUT = "w-24 rounded border border-slate-300 px-2 py-1 text-sm font-normal tabular-nums";

/**
 * Pass marks of the chosen score metrics (DeepEval, Mastra; success is score ≥ threshold, ≤ where lower is
 * better), the ROUGE type that is rouge's score, and Mastra's context_relevance penalties and scale. Field names are read by app/actions/startRun.ts.
 */
export function ScoreSettings({
  metrics,
  gEvalJudges,
  calls,
  offline,
}: {
  metrics: MetricOption[];
  gEvalJudges: number;
  calls: CallChoiceProps;
  offline: boolean;
}) {
  const scored = metrics.filter((metric) => metric.score !== null);
  const contextRelevance = metrics.some((metric) => metric.name === CONTEXT_RELEVANCE);
  const rouge = metrics.some((metric) => metric.name === ROUGE);
  const bleu = metrics.some((metric) => metric.name === BLEU);
  const agents = (
    <>
      <ToolCallSettingsFields metrics={metrics} />
      <ConversationSettingsFields metrics={metrics} />
    </>
  );
  if (scored.length === 0 && gEvalJudges === 0) return agents;
  return (
    <div className="space-y-3" data-testid="score-settings">
      <fieldset hidden={scored.length === 0}>
        <legend className="text-sm font-semibold">Pass marks</legend>
        <p className="text-xs text-slate-600">
          A row succeeds when its score is at or above the pass mark, or at or below it where lower is better.
        </p>
        <div className="mt-2 flex flex-wrap gap-3">
          {scored.map((metric) => (
            <label key={metric.name} className="flex flex-col gap-1 text-xs font-medium text-slate-700">
              {metric.label}
              {metric.score?.direction === "lower" ? " (at most)" : " (at least)"}
              <input
                name={`threshold:${metric.name}`}
                type="number"
                step={0.01}
                min={0}
                max={metric.name === CONTEXT_RELEVANCE ? undefined : 1}
                defaultValue={metric.score?.defaultThreshold}
                required
                className={INPUT}
              />
            </label>
          ))}
        </div>
      </fieldset>
      {bleu && (
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-700" data-testid="bleu-type">
          BLEU score
          <select name="bleuType" defaultValue={DEFAULT_BLEU_TYPE} className={`${INPUT} w-72`}>
            {BLEU_TYPES.map((type) => (
              <option key={type} value={type}>
                {BLEU_NAMES[type]}
              </option>
            ))}
          </select>
          <span className="font-normal text-slate-600">
            DeepEval&apos;s bleu1 to bleu4 weigh one n-gram order each, unsmoothed, on word_tokenize&apos;s tokens.
          </span>
        </label>
      )}
      {rouge && (
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-700" data-testid="rouge-type">
          ROUGE score
          <select name="rougeType" defaultValue={DEFAULT_ROUGE_TYPE} className={`${INPUT} w-40`}>
            {ROUGE_TYPES.map((type) => (
              <option key={type} value={type}>
                {ROUGE_TYPE_NAMES[type]} F1
              </option>
            ))}
          </select>
          <span className="font-normal text-slate-600">
            Porter-stemmed tokens, as rouge_score and DeepEval compute it.
          </span>
        </label>
      )}
      {contextRelevance && (
        <fieldset data-testid="context-relevance-settings">
          <legend className="text-sm font-semibold">Context relevance (Mastra) settings</legend>
          <p className="text-xs text-slate-600">
            final = max(0, base − unused-high penalty − missing penalty) × scale; Mastra&apos;s defaults shown.
          </p>
          <div className="mt-2 flex flex-wrap gap-3">
            {PENALTIES.map((penalty) => (
              <label key={penalty.key} className="flex flex-col gap-1 text-xs font-medium text-slate-700">
                {penalty.label}
                <input
                  name={`contextRelevance:${penalty.key}`}
                  type="number"
                  step={0.01}
                  min={0}
                  max={penalty.max}
                  defaultValue={DEFAULT_CONTEXT_RELEVANCE_SETTINGS[penalty.key]}
                  required
                  className={INPUT}
                />
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <DeepEvalSettingsFields metrics={metrics} gEvalJudges={gEvalJudges} calls={calls} offline={offline} />
      {agents}
    </div>
  );
}
