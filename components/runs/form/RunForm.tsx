"use client";

import { useActionState, useState } from "react";
import { startRun, type StartRunState } from "@/app/actions/startRun";
import { Button } from "@/components/ui/Button";
import { CardFrame } from "@/components/ui/Card";
import { submitTo } from "@/components/ui/submitTo";
import { CustomJudgesEditor } from "./CustomJudgesEditor";
import { GenerationPromptNote, type AnswerTemplatesInfo } from "./GenerationPromptNote";
import { ExpectedCallsNote } from "./ExpectedCallsNote";
import { BudgetFields } from "./BudgetFields";
import { ConcurrencyField } from "./ConcurrencyField";
import { TrialsField } from "./TrialsField";
import { MAX_TRIALS } from "@/lib/contract/runLimits";
import { effectiveRows, JudgeFamilyTable } from "./JudgeFamilyTable";
import { metricsOnGenerateChange } from "./generatedMetrics";
import { GEvalJudgesEditor } from "./GEvalJudgesEditor";
import type { CustomJudgeDraft, GEvalJudgeDraft, JudgeOption, MetricOption } from "./runFormTypes";
import { ScoreSettings } from "./ScoreSettings";
import { AlignedJudgesPicker } from "./AlignedJudgesPicker";
import type { AlignedJudgeOption } from "./alignedJudgeOption";
import { formatInteger, formatUsd } from "@/lib/charts/format";
import type { RowTextProfile } from "@/lib/db/datasets/datasetTextSizes";
import { estimateFormSpending, plannedJudges } from "@/lib/engine/plannedSpending";
import type { CallStructure } from "@/lib/contract/deepEvalSettings";
import { callChoiceSettings, DEFAULT_CALL_CHOICE, type CallChoice } from "./callChoice";

type Props = {
  datasetId: string;
  rowCount: number;
  metricsAsUploaded: MetricOption[];
  metricsWithGeneration: MetricOption[];
  judge: JudgeOption;
  /** Rows with retrieved text, which a generating run sends the model through the RAG-answer template. */
  rowsWithRetrievedContext: number;
  answerTemplates: AnswerTemplatesInfo;
  /** The dataset's rows grouped by the inputs they carry, with their text sizes: what the estimate is computed from. */
  textProfiles: RowTextProfile[];
  /** The server-wide spending limits in a sentence (lib/config/spendingLimits.ts), or null when none are set. */
  spendingLimits: string | null;
  /** The dataset's adopted aligned judges, and those chosen on arrival (an Adopt link's preset). */
  alignedJudges: AlignedJudgeOption[];
  presetAligned: string[];
};

/** The run form: judges with how many rows each will run on, the judge model, concurrency, generation, custom judges. */
export function RunForm({
  datasetId,
  rowCount,
  metricsAsUploaded,
  metricsWithGeneration,
  judge,
  rowsWithRetrievedContext,
  answerTemplates,
  textProfiles,
  spendingLimits,
  alignedJudges,
  presetAligned,
}: Props) {
  const [state, formAction, pending] = useActionState<StartRunState, FormData>(startRun, { message: null, errors: [] });
  const [generate, setGenerate] = useState(false);
  const [customJudges, setCustomJudges] = useState<CustomJudgeDraft[]>([]);
  const [gEvalJudges, setGEvalJudges] = useState<GEvalJudgeDraft[]>([]);
  const [judgeChoice, setJudgeChoice] = useState<"heuristic" | "model">(judge.configured ? "model" : "heuristic");
  const offline = judgeChoice === "heuristic";
  const [judgeModel, setJudgeModel] = useState(judge.configured ? judge.defaultModel : "");
  // An empty field runs the server's default model (startRun), so the estimate prices that one.
  const pricedJudgeModel = judgeModel.trim() || (judge.configured ? judge.defaultModel : "");
  const [generationModel, setGenerationModel] = useState("");
  const [chunkMode, setChunkMode] = useState<"batched" | "per_chunk">("batched");
  const [trials, setTrials] = useState("1");
  const metrics = generate ? metricsWithGeneration : metricsAsUploaded;
  // The Databricks suite by default, as the CLI's `all`: the score families are chosen by hand, so a default run's cost does not grow by ten LLM metrics.
  const [selected, setSelected] = useState<Set<string>>(
    () =>
      new Set(
        metricsAsUploaded
          .filter((m) => m.family === "databricks" && effectiveRows(m, !judge.configured) > 0)
          .map((m) => m.name),
      ),
  );
  const toggle = (name: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      return next;
    });
  const chosen = metrics.filter((m) => selected.has(m.name));
  const [aligned, setAligned] = useState<Set<string>>(() => new Set(presetAligned));
  const toggleAligned = (id: string) =>
    setAligned((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  // Aligned judges are planned as the custom and G-Eval judges they are; none runs on the offline judge.
  const alignedPlans = offline ? [] : alignedJudges.filter((j) => aligned.has(j.id)).map((j) => j.plan);
  // DeepEval's options that change the number of calls: the call structure, the reason call, given questions.
  const [callChoice, setCallChoice] = useState<CallChoice>(DEFAULT_CALL_CHOICE);
  // The same plan and formula as the CLI's estimate (lib/engine/plannedSpending.ts); G-Eval is skipped on the offline judge.
  const planned = plannedJudges({
    deepEvalExact: callChoice.exact,
    metrics: chosen.map((m) => m.name),
    customJudges: [...customJudges, ...alignedPlans.flatMap((plan) => (plan.kind === "custom" ? [plan] : []))],
    gEvalJudges: offline
      ? []
      : [
          ...gEvalJudges.map((draft) => ({ ...draft, writtenSteps: draft.steps.trim() !== "" })),
          ...alignedPlans.flatMap((plan) => (plan.kind === "g_eval" ? [plan] : [])),
        ],
  });
  // A value the server will refuse (the form says why) is estimated as one trial meanwhile.
  const trialCount = Number.isInteger(Number(trials)) && Number(trials) >= 1 ? Math.min(Number(trials), MAX_TRIALS) : 1;
  const estimateWith = (callStructure: CallStructure) =>
    estimateFormSpending(
      {
        profiles: textProfiles,
        judges: planned.judges,
        gEvalMetrics: planned.gEvalMetrics,
        trials: trialCount,
      },
      {
        judgeModel: offline ? "" : pricedJudgeModel, // the offline judge is never priced: it makes no calls
        generationModel: generate ? generationModel.trim() : null,
        chunkMode,
        heuristic: offline,
        prices: judge.configured ? judge.prices : {},
        deepEval: callChoiceSettings(callChoice, callStructure),
      },
    );
  const estimate = estimateWith(callChoice.callStructure);
  const callsByStructure = { folded: estimateWith("folded").llmCalls, deepeval: estimateWith("deepeval").llmCalls };
  // From the plan, so DeepEval-exact's empty responses count; a metric the offline judge has no rule for runs on none.
  const runsOnNone = new Set(chosen.filter((m) => effectiveRows(m, offline) === 0).map((m) => m.name));
  const judgedRows = estimate.judged
    .filter((work) => !runsOnNone.has(work.metric))
    .reduce((sum, work) => sum + work.items / trialCount, 0);

  return (
    <form onSubmit={submitTo(formAction)} className="space-y-4" data-testid="run-form">
      <input type="hidden" name="datasetId" value={datasetId} />
      <input type="hidden" name="customJudges" value={JSON.stringify(customJudges)} />
      <input type="hidden" name="gEvalJudges" value={JSON.stringify(gEvalJudges)} />

      <CardFrame>
        <h2 className="text-sm font-semibold">Judges</h2>
        <p className="text-xs text-slate-500">
          {formatInteger(judgedRows)} judgments will run across {formatInteger(rowCount)} rows
          {trialCount > 1 && `, each ${trialCount} times (${formatInteger(judgedRows * trialCount)} in all)`}; the rest
          are skipped with their reason.
        </p>
        <ExpectedCallsNote
          estimate={estimate}
          offline={offline}
          judgeModel={pricedJudgeModel}
          generationModel={generate ? generationModel.trim() : null}
          prices={judge.configured ? judge.prices : {}}
        />
        <div className="mt-3">
          <JudgeFamilyTable
            metrics={metrics}
            selected={selected}
            offline={offline}
            onToggle={toggle}
            agentSource={generate ? "from the generation" : "from the trace"}
          />
        </div>
      </CardFrame>

      {(chosen.some((m) => m.score !== null) || (!offline && gEvalJudges.length > 0)) && (
        <CardFrame>
          <ScoreSettings
            metrics={chosen}
            gEvalJudges={offline ? 0 : gEvalJudges.length}
            offline={offline}
            calls={{ choice: callChoice, onChange: setCallChoice, byStructure: callsByStructure }}
          />
        </CardFrame>
      )}

      {alignedJudges.length > 0 && (
        <CardFrame id="aligned-judges" className="scroll-mt-16">
          <h2 className="text-sm font-semibold">Aligned judges</h2>
          <p className="mb-2 text-xs text-slate-500">
            Versions of this dataset&apos;s judges that learned from its labels, adopted after their held-out proof.
            Each runs as a judge of its own, beside the original.
          </p>
          <AlignedJudgesPicker judges={alignedJudges} chosen={aligned} offline={offline} onToggle={toggleAligned} />
        </CardFrame>
      )}

      <CardFrame>
        <h2 className="text-sm font-semibold">Custom judges</h2>
        <p className="mb-2 text-xs text-slate-500">
          Your own yes/no criteria, graded per response (ANSWER) or per retrieved chunk (RETRIEVAL).
        </p>
        <CustomJudgesEditor judges={customJudges} onChange={setCustomJudges} />
      </CardFrame>

      <CardFrame>
        <h2 className="text-sm font-semibold">G-Eval judges</h2>
        <p className="mb-2 text-xs text-slate-600">
          Your own criteria, scored 1–5 or 0–10 (as DeepEval) by the judge model after evaluation steps it writes once
          per criteria and model, or the steps you write (DeepEval&apos;s G-Eval); the reason comes before the score,
          which is weighted by the score token&apos;s probabilities when the endpoint returns them. Needs an LLM judge.
        </p>
        <GEvalJudgesEditor judges={gEvalJudges} onChange={setGEvalJudges} />
      </CardFrame>

      <CardFrame className="grid gap-4 md:grid-cols-2">
        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold">Judge model</legend>
          <label className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name="judge"
              value="heuristic"
              checked={offline}
              onChange={() => setJudgeChoice("heuristic")}
              className="mt-1"
            />
            <span>
              Offline heuristic judge{" "}
              <span className="block text-xs text-slate-500">
                Lexical rules, no network. Results are labelled as heuristic everywhere.
              </span>
            </span>
          </label>
          <label className={`flex items-start gap-2 text-sm ${judge.configured ? "" : "text-slate-400"}`}>
            <input
              type="radio"
              name="judge"
              value="model"
              checked={!offline}
              onChange={() => setJudgeChoice("model")}
              disabled={!judge.configured}
              className="mt-1"
            />
            <span className="flex-1">
              LLM judge{" "}
              {judge.configured ? (
                <>via {judge.endpoint}</>
              ) : (
                "(configure an OpenAI-compatible endpoint on the server; see docs/configuration.md)"
              )}
              {judge.configured && (
                <input
                  name="judgeModel"
                  value={judgeModel}
                  onChange={(event) => setJudgeModel(event.target.value)}
                  className="mt-1 block w-full rounded border border-slate-300 px-2 py-1 text-sm"
                  aria-label="Judge model"
                />
              )}
            </span>
          </label>
        </fieldset>
        <div className="space-y-3">
          <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
            Run name (optional)
            <input
              name="name"
              maxLength={200}
              placeholder="gpt-4.1 + reranker v2"
              className="rounded border border-slate-300 px-2 py-1 text-sm font-normal"
            />
          </label>
          <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
            Tags (comma-separated)
            <input
              name="tags"
              maxLength={1000}
              placeholder="baseline, reranker-v2"
              className="rounded border border-slate-300 px-2 py-1 text-sm font-normal"
            />
          </label>
          <div className="flex gap-3">
            <ConcurrencyField maxInFlight={judge.configured ? judge.maxInFlight : null} />
            <TrialsField value={trials} onChange={setTrials} />
            <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
              Chunk relevance
              <select
                name="chunkMode"
                value={chunkMode}
                onChange={(event) => setChunkMode(event.target.value === "per_chunk" ? "per_chunk" : "batched")}
                className="rounded border border-slate-300 px-2 py-1 text-sm font-normal"
              >
                <option value="batched">one call per row (all chunks)</option>
                <option value="per_chunk">one call per chunk</option>
              </select>
            </label>
          </div>
        </div>
      </CardFrame>

      <CardFrame>
        <label className={`flex items-center gap-2 text-sm font-semibold ${judge.configured ? "" : "text-slate-400"}`}>
          <input
            type="checkbox"
            name="generate"
            checked={generate}
            onChange={(e) => {
              const checked = e.target.checked;
              setGenerate(checked);
              setSelected((current) =>
                metricsOnGenerateChange(current, checked, {
                  asUploaded: metricsAsUploaded,
                  withGeneration: metricsWithGeneration,
                }),
              );
            }}
            disabled={!judge.configured}
          />
          Generate responses with a chat model, then judge them
        </label>
        <p className="text-xs text-slate-500">
          Compare model versions on one dataset: each row's conversation goes to the model; its latency and tokens are
          measured (the agent metrics, ticked with this box) and compared per model.
        </p>
        {generate && (
          <GenerationPromptNote
            rowsWithContext={rowsWithRetrievedContext}
            rowCount={rowCount}
            templates={answerTemplates}
          />
        )}
        {generate && (
          <div className="mt-2 grid gap-3 md:grid-cols-2">
            <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
              Model
              <input
                name="generationModel"
                required
                value={generationModel}
                onChange={(event) => setGenerationModel(event.target.value)}
                placeholder="gpt-4.1-mini"
                className="rounded border border-slate-300 px-2 py-1 text-sm font-normal"
              />
            </label>
            <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
              System prompt (optional)
              <textarea
                name="systemPrompt"
                rows={2}
                className="rounded border border-slate-300 px-2 py-1 text-sm font-normal"
              />
            </label>
          </div>
        )}
      </CardFrame>

      <CardFrame>
        <h2 className="text-sm font-semibold">Budget (optional)</h2>
        <p className="mb-2 text-xs text-slate-500">
          The run pauses when it reaches any limit set here, keeping what it has judged; raise or clear the limit on the
          run page to resume. Empty fields set no limit. Cost needs the judge model&apos;s price in ASSAY_LLM_PRICES.
        </p>
        {spendingLimits && (
          <p className="mb-2 text-xs font-medium text-slate-700" data-testid="spending-limits">
            {spendingLimits}
          </p>
        )}
        <BudgetFields idPrefix="new-run-budget" />
        {estimate.llmCalls > 0 && (
          <p className="mt-2 text-xs text-slate-600" data-testid="budget-estimate-hint">
            The estimate above for this run: {formatInteger(estimate.llmCalls)} LLM calls,{" "}
            {formatInteger(estimate.inputTokens + estimate.outputTokens)} tokens
            {estimate.costUsd !== null && <>, about {formatUsd(estimate.costUsd)}</>}.
          </p>
        )}
      </CardFrame>

      {(state.message || state.errors.length > 0) && (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          {state.message && <p className="font-medium">{state.message}</p>}
          <ul className="list-disc pl-5">
            {state.errors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        </div>
      )}
      <Button
        type="submit"
        disabled={
          pending ||
          (selected.size === 0 && customJudges.length === 0 && gEvalJudges.length === 0 && aligned.size === 0)
        }
        variant="primary"
        size="2xl"
        className="text-sm"
      >
        {pending ? "Starting…" : "Start run"}
      </Button>
    </form>
  );
}
