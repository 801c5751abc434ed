"use client";

import { JudgeListEditor } from "./JudgeListEditor";
import {
  DEFAULT_GEVAL_SCALE,
  EVALUATION_PARAMS,
  GEVAL_SCALES,
  type EvaluationParam,
} from "@/lib/contract/gEvalDefinition";
import { G_EVAL_PREFIX } from "@/lib/contract/gEvalMetric";
import type { GEvalJudgeDraft } from "./runFormTypes";

const PARAM_WORDS: Record<EvaluationParam, string> = {
  input: "input (the request)",
  actual_output: "actual_output (the response)",
  expected_output: "expected_output",
  retrieval_context: "retrieval_context (retrieved chunks)",
  context: "context (the ideal context)",
  metadata: "metadata (the trace's)",
  tags: "tags (the trace's)",
  expected_tools: "expected_tools",
  tools_called: "tools_called (the agent's tool calls)",
};

const SCALE_WORDS: Record<(typeof GEVAL_SCALES)[number], string> = {
  "1-5": "1–5 (the G-Eval paper)",
  "0-10": "0–10 (DeepEval)",
};
const TEXT = "rounded border border-slate-300 px-2 py-1 text-sm font-normal";

/**
 * Custom G-Eval judges, defined like the custom ANSWER/RETRIEVAL judges: a name, the criteria
 * in words or the evaluation steps written out (DeepEval's evaluation_steps), the fields the judge reads
 * (DeepEval's evaluation_params), the scale, an optional rubric and a pass mark on [0, 1]. Steps not
 * written are generated once per criteria and model when the run starts, and shown on the run page.
 */
export function GEvalJudgesEditor({
  judges,
  onChange,
}: {
  judges: GEvalJudgeDraft[];
  onChange: (judges: GEvalJudgeDraft[]) => void;
}) {
  return (
    <JudgeListEditor
      items={judges}
      onChange={onChange}
      blank={{
        name: "",
        criteria: "",
        steps: "",
        evaluationParams: ["input", "actual_output"],
        scale: DEFAULT_GEVAL_SCALE,
        rubric: "",
        threshold: 0.5,
      }}
      addLabel="+ Add a G-Eval judge"
      testId="g-eval-editor"
      fields={(judge, update, remove) => (
        <>
          <div className="flex flex-wrap items-end gap-3">
            <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
              G-Eval name
              <input
                value={judge.name}
                onChange={(e) => update({ name: e.target.value })}
                placeholder="coherence"
                pattern="[a-z][a-z0-9_]*"
                required
                className="w-56 rounded border border-slate-300 px-2 py-1 font-mono text-sm font-normal"
              />
            </label>
            <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
              G-Eval pass mark (0–1)
              <input
                type="number"
                min={0}
                max={1}
                step={0.05}
                value={judge.threshold}
                onChange={(e) => update({ threshold: Number(e.target.value) })}
                required
                className="w-24 rounded border border-slate-300 px-2 py-1 text-sm font-normal tabular-nums"
              />
            </label>
            <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
              G-Eval scale
              <select
                value={judge.scale}
                onChange={(e) => update({ scale: e.target.value })}
                className="w-48 rounded border border-slate-300 px-2 py-1 text-sm font-normal"
              >
                {GEVAL_SCALES.map((scale) => (
                  <option key={scale} value={scale}>
                    {SCALE_WORDS[scale]}
                  </option>
                ))}
              </select>
            </label>
            {remove}
          </div>
          <label className="mt-2 flex flex-col gap-1 text-xs font-medium text-slate-700">
            G-Eval criteria
            <textarea
              value={judge.criteria}
              onChange={(e) => update({ criteria: e.target.value })}
              rows={2}
              required={judge.steps.trim() === ""}
              placeholder="Coherence: the sentences of the actual output build a clear, well-organised answer."
              className={TEXT}
            />
          </label>
          <div className="mt-2 grid gap-3 md:grid-cols-2">
            <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
              Evaluation steps (optional, one per line: used as written, no steps call)
              <textarea
                value={judge.steps}
                onChange={(e) => update({ steps: e.target.value })}
                rows={3}
                placeholder={"Check every sentence follows from the one before.\nPenalise jumps between topics."}
                className={TEXT}
              />
            </label>
            <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
              Rubric (optional, one range per line, within the scale)
              <textarea
                value={judge.rubric}
                onChange={(e) => update({ rubric: e.target.value })}
                rows={3}
                placeholder={"0-3: misses the question\n4-7: answers it in part\n8-10: answers it fully"}
                className={`${TEXT} font-mono text-xs`}
              />
            </label>
          </div>
          <fieldset className="mt-2">
            <legend className="text-xs font-medium text-slate-700">Evaluation parameters (what the judge reads)</legend>
            <div className="mt-1 flex flex-wrap gap-3">
              {EVALUATION_PARAMS.map((param) => (
                <label key={param} className="flex items-center gap-1 text-xs text-slate-700">
                  <input
                    type="checkbox"
                    checked={judge.evaluationParams.includes(param)}
                    onChange={(e) =>
                      update({
                        evaluationParams: e.target.checked
                          ? EVALUATION_PARAMS.filter((p) => p === param || judge.evaluationParams.includes(p))
                          : judge.evaluationParams.filter((p) => p !== param),
                      })
                    }
                  />
                  {PARAM_WORDS[param]}
                </label>
              ))}
            </div>
          </fieldset>
          <p className="mt-1 font-mono text-[11px] text-slate-600">
            {G_EVAL_PREFIX}
            {judge.name || "{name}"}/score · {judge.steps.trim() ? "steps as written" : "1 call for the steps"}, then 1
            per row
          </p>
        </>
      )}
    />
  );
}
