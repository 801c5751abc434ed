import { Card } from "@/components/ui/Card";
import { formatScore } from "@/lib/charts/format";
import { getDb } from "@/lib/db/client";
import { getGEvalSteps } from "@/lib/db/judgments/gEvalQueries";
import type { GEvalDefinition } from "@/lib/judges/geval/definition";
import { gEvalMetricName } from "@/lib/metrics/gEvalMetric";

/**
 * A run's custom G-Eval judges: the criteria, the parameters read, the pass mark, and the evaluation
 * steps the model wrote for them with their hash (the version every score of this judge names).
 */
export async function GEvalStepsPanel({ runId, judges }: { runId: string; judges: GEvalDefinition[] }) {
  if (judges.length === 0) return null;
  const steps = await Promise.all(judges.map((judge) => getGEvalSteps(getDb(), runId, gEvalMetricName(judge))));
  return (
    <Card title="G-Eval judges" subtitle="Evaluation steps generated once per criteria and model" testId="g-eval-steps">
      <div className="space-y-3">
        {judges.map((judge, index) => (
          <section key={judge.name} aria-label={`G-Eval ${judge.name}`} className="text-sm">
            <p className="font-medium">
              {judge.name} <code className="font-mono text-[11px] text-slate-600">{gEvalMetricName(judge)}</code>
            </p>
            <p className="whitespace-pre-wrap text-slate-700">{judge.criteria}</p>
            <p className="text-xs text-slate-600">
              reads {judge.evaluationParams.join(", ")} · pass mark {formatScore(judge.threshold)}
            </p>
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
