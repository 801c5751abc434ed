import { Card } from "@/components/ui/Card";
import { formatScore } from "@/lib/charts/format";
import { getDb } from "@/lib/db/client";
import { getGEvalSteps } from "@/lib/db/judgments/gEvalQueries";
import { rangeText, sortRubric, type GEvalDefinition } from "@/lib/contract/gEvalDefinition";
import { gEvalMetricName } from "@/lib/contract/gEvalMetric";

/**
 * A run's custom G-Eval judges: the criteria, the parameters read, the scale, the rubric, the pass mark,
 * and the evaluation steps (the author's, or those the model wrote) with their hash (the version every
 * score of this judge names).
 */
export async function GEvalStepsPanel({
  runId,
  judges,
  thresholds,
  exact = false,
}: {
  runId: string;
  judges: GEvalDefinition[];
  /** The run's pass marks: a judge's own, unless the run set another (strict mode sets 1). */
  thresholds: Record<string, number>;
  /** DeepEval-exact: every judge on DeepEval's 0–10 scale, its steps written anew for each row. */
  exact?: boolean;
}) {
  if (judges.length === 0) return null;
  const stored = await Promise.all(judges.map((judge) => getGEvalSteps(getDb(), runId, gEvalMetricName(judge))));
  // An author's steps are known before any row is scored.
  const steps = stored.map(
    (found, index) =>
      found ?? (judges[index].evaluationSteps ? { steps: judges[index].evaluationSteps, stepsHash: null } : null),
  );
  return (
    <Card
      title="G-Eval judges"
      subtitle={
        exact
          ? "DeepEval-exact: steps written by the judge's author, or generated anew for each row as DeepEval does (the first row's shown); scored 0–10"
          : "Evaluation steps as written by the judge's author, or generated once per criteria and model"
      }
      testId="g-eval-steps"
    >
      <div className="space-y-3">
        {judges.map((judge, index) => (
          <section key={judge.name} aria-label={`G-Eval ${judge.name}`} className="text-sm">
            <p className="font-medium">
              {judge.name} <code className="font-mono text-[11px] text-slate-600">{gEvalMetricName(judge)}</code>
            </p>
            {judge.criteria && <p className="whitespace-pre-wrap text-slate-700">{judge.criteria}</p>}
            <p className="text-xs text-slate-600">
              reads {judge.evaluationParams.join(", ")} · scale {exact ? "0–10" : judge.scale.replace("-", "–")} · pass
              mark {formatScore(thresholds[gEvalMetricName(judge)] ?? judge.threshold)}
              {judge.evaluationSteps ? " · steps written by its author" : ""}
            </p>
            {judge.rubric && (
              <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 text-xs" data-testid="g-eval-rubric">
                {sortRubric(judge.rubric).map((entry) => (
                  <div key={rangeText(entry)} className="contents">
                    <dt className="font-mono tabular-nums text-slate-600">{rangeText(entry)}</dt>
                    <dd className="whitespace-pre-wrap text-slate-800">{entry.expectedOutcome}</dd>
                  </div>
                ))}
              </dl>
            )}
            {steps[index] ? (
              <>
                <ol className="mt-1 list-decimal pl-5 text-slate-800" data-testid="g-eval-step-list">
                  {steps[index].steps.map((step, i) => (
                    <li key={i} className="whitespace-pre-wrap">
                      {step}
                    </li>
                  ))}
                </ol>
                {steps[index].stepsHash && (
                  <p className="text-[11px] text-slate-600">
                    steps version <code>{steps[index].stepsHash}</code> (sha256 of the steps)
                  </p>
                )}
              </>
            ) : (
              <p className="text-xs text-slate-600">The steps appear once the first row is scored.</p>
            )}
          </section>
        ))}
      </div>
    </Card>
  );
}
