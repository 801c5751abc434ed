"use client";

import { JudgeListEditor } from "./JudgeListEditor";
import type { CustomJudgeDraft } from "./runFormTypes";

/** Custom judges as Agent Evaluation defines them: a name, ANSWER or RETRIEVAL, and the instructions the judge grades against. */
export function CustomJudgesEditor({
  judges,
  onChange,
}: {
  judges: CustomJudgeDraft[];
  onChange: (judges: CustomJudgeDraft[]) => void;
}) {
  return (
    <JudgeListEditor
      items={judges}
      onChange={onChange}
      blank={{ assessmentName: "", assessmentType: "ANSWER", instructions: "" }}
      addLabel="+ Add a custom judge"
      fields={(judge, update, remove) => (
        <>
          <div className="flex flex-wrap items-end gap-3">
            <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
              assessment_name
              <input
                value={judge.assessmentName}
                onChange={(e) => update({ assessmentName: e.target.value })}
                placeholder="cites_sources"
                pattern="[a-z][a-z0-9_]*"
                required
                className="w-56 rounded border border-slate-300 px-2 py-1 font-mono text-sm font-normal"
              />
            </label>
            <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
              assessment_type
              <select
                value={judge.assessmentType}
                onChange={(e) => update({ assessmentType: e.target.value as CustomJudgeDraft["assessmentType"] })}
                className="rounded border border-slate-300 px-2 py-1 text-sm font-normal"
              >
                <option value="ANSWER">ANSWER: judge each response</option>
                <option value="RETRIEVAL">RETRIEVAL: judge each retrieved chunk</option>
              </select>
            </label>
            {remove}
          </div>
          <label className="mt-2 flex flex-col gap-1 text-xs font-medium text-slate-600">
            Instructions: what earns a yes
            <textarea
              value={judge.instructions}
              onChange={(e) => update({ instructions: e.target.value })}
              rows={2}
              required
              minLength={10}
              placeholder="The response cites the documentation page it relies on."
              className="rounded border border-slate-300 px-2 py-1 text-sm font-normal"
            />
          </label>
          <p className="mt-1 font-mono text-[11px] text-slate-500">
            {judge.assessmentType === "ANSWER"
              ? `response/llm_judged/${judge.assessmentName || "{assessment_name}"}/rating`
              : `retrieval/llm_judged/${judge.assessmentName || "{assessment_name}"}/ratings, …/precision`}
          </p>
        </>
      )}
    />
  );
}
