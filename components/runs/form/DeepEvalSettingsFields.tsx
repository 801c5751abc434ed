"use client";

import { hasStrictMode } from "@/lib/metrics/strictMode";
import {
  DEFAULT_LIST_CAP,
  DEFAULT_SUMMARIZATION_QUESTIONS,
  MAX_ASSESSMENT_QUESTIONS,
} from "@/lib/contract/deepEvalSettings";
import { formatInteger } from "@/lib/charts/format";
import type { CallChoiceProps } from "./callChoice";
import type { MetricOption } from "./runFormTypes";

const FAITHFULNESS = "response/llm_judged/faithfulness";
const SUMMARIZATION = "response/llm_judged/summarization";
const INPUT = "w-24 rounded border border-slate-300 px-2 py-1 text-sm font-normal tabular-nums";
const CHECK = "flex items-start gap-2 text-xs text-slate-700";

/**
 * DeepEval's options for the run, by DeepEval's names, shown when the run has a DeepEval metric or a
 * G-Eval judge. Field names (`deepEval:<key>`) are read by app/actions/startRun.ts; `deepEval:shown`
 * tells it the unchecked boxes mean "off", not "not asked".
 */
export function DeepEvalSettingsFields({
  metrics,
  gEvalJudges,
  calls,
  offline,
}: {
  metrics: MetricOption[];
  gEvalJudges: number;
  calls: CallChoiceProps;
  /** The offline judge makes no calls and writes no reasons or lists: only strict_mode and penalize_ambiguous_claims apply. */
  offline: boolean;
}) {
  // DeepEval's own family, and its agent and conversational metrics (whose strict_mode and reason these set too).
  const deepEval = metrics.some((metric) => hasStrictMode(metric.name));
  if (!deepEval && gEvalJudges === 0) return null;
  const faithfulness = metrics.some((metric) => metric.name === FAITHFULNESS);
  const summarization = metrics.some((metric) => metric.name === SUMMARIZATION);
  const { choice, onChange, byStructure } = calls;
  return (
    <fieldset data-testid="deepeval-settings" className="space-y-2">
      <legend className="text-sm font-semibold">DeepEval options</legend>
      <input type="hidden" name="deepEval:shown" value="1" />
      {deepEval && !offline && (
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-700" data-testid="call-structure">
          Calls per row
          <select
            name="deepEval:callStructure"
            value={choice.exact ? "exact" : choice.callStructure}
            onChange={(e) =>
              onChange({
                ...choice,
                callStructure: e.target.value === "folded" ? "folded" : "deepeval",
                exact: e.target.value === "exact",
              })
            }
            className="w-[30rem] rounded border border-slate-300 px-2 py-1 text-sm font-normal"
          >
            <option value="folded">
              Folded: one call per row, two for summarization ({formatInteger(byStructure.folded)} LLM calls)
            </option>
            <option value="deepeval">
              DeepEval&apos;s own calls, metric by metric ({formatInteger(byStructure.deepeval)} LLM calls)
            </option>
            <option value="exact">
              DeepEval-exact: its calls and defaults ({formatInteger(byStructure.deepeval)} LLM calls)
            </option>
          </select>
          <span className="font-normal text-slate-600">
            DeepEval&apos;s own calls see what DeepEval&apos;s do (claims from the answer alone, one call per chunk for
            contextual relevancy, a call for the reason): slower and dearer, for when you must reproduce its number.
          </span>
        </label>
      )}
      <label className={CHECK}>
        <input type="checkbox" name="deepEval:strictMode" className="mt-0.5" />
        <span>
          <span className="font-medium">strict_mode</span>: every DeepEval metric
          {gEvalJudges > 0 ? " and G-Eval judge" : ""} scores 1 or 0, and its pass mark becomes 1 (0 where lower is
          better), over the pass marks above.
        </span>
      </label>
      {offline ? (
        // No reason is written offline; the setting keeps its default for the run.
        <input type="hidden" name="deepEval:includeReason" value="on" />
      ) : (
        <label className={CHECK}>
          <input
            type="checkbox"
            name="deepEval:includeReason"
            checked={choice.includeReason}
            onChange={(e) => onChange({ ...choice, includeReason: e.target.checked })}
            className="mt-0.5"
          />
          <span>
            <span className="font-medium">include_reason</span>: ask for the overall reason (off: fewer output tokens;
            each claim&apos;s or statement&apos;s own reason stays).
          </span>
        </label>
      )}
      {faithfulness && (
        <label className={CHECK}>
          <input type="checkbox" name="deepEval:penalizeAmbiguousClaims" className="mt-0.5" />
          <span>
            <span className="font-medium">penalize_ambiguous_claims</span> (faithfulness): a claim the context neither
            supports nor contradicts counts against the score.
          </span>
        </label>
      )}
      {!offline && (
        <>
          <div className="flex flex-wrap gap-3">
            {!choice.exact && (
              <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
                List cap (items per answer)
                <input
                  name="deepEval:listCap"
                  type="number"
                  min={5}
                  max={200}
                  step={1}
                  defaultValue={DEFAULT_LIST_CAP}
                  required
                  className={INPUT}
                />
              </label>
            )}
            {(faithfulness || summarization) && choice.callStructure === "deepeval" && (
              <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
                truths_extraction_limit (optional)
                <input
                  name="deepEval:truthsExtractionLimit"
                  type="number"
                  min={1}
                  max={200}
                  step={1}
                  placeholder="no limit"
                  className={INPUT}
                />
              </label>
            )}
            {summarization && (
              <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
                Summarization n (questions)
                <input
                  name="deepEval:summarizationQuestions"
                  type="number"
                  min={1}
                  max={MAX_ASSESSMENT_QUESTIONS}
                  step={1}
                  defaultValue={DEFAULT_SUMMARIZATION_QUESTIONS}
                  required
                  className={INPUT}
                />
              </label>
            )}
          </div>
          <p className="text-xs text-slate-600">
            {choice.exact
              ? 'DeepEval-exact: no list cap, as DeepEval has none; BLEU is DeepEval\'s bleu1 unless the run names another; an empty response ("") is judged, as DeepEval judges it (BLEU and ROUGE 0).'
              : "A list that reaches the cap says so in its details: the judge was told to merge minor items past it."}
          </p>
          {summarization && (
            <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
              Summarization assessment_questions (optional, one per line: closed yes/no questions the source answers
              yes; they replace the n written by the judge)
              <textarea
                name="deepEval:assessmentQuestions"
                onChange={(e) => {
                  const given = e.target.value.trim() !== "";
                  if (given !== choice.givenQuestions) onChange({ ...choice, givenQuestions: given });
                }}
                rows={3}
                placeholder={"Does the text say the plan costs $20 a month?\nDoes the text say SSO is included?"}
                className="rounded border border-slate-300 px-2 py-1 text-sm font-normal"
              />
            </label>
          )}
        </>
      )}
    </fieldset>
  );
}
