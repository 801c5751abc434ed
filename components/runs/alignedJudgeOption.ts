import { alignedMetricName } from "@/lib/alignment/alignedDefinition";
import { storedComparison } from "@/lib/alignment/heldOutComparison";
import type { StoredAlignment } from "@/lib/db/alignments/judgeAlignments";
import { metricShortName } from "@/lib/urlState/runRowQuery";
import { kappaText } from "@/components/labels/agreementFormat";

/** An adopted aligned judge as the run form offers it: what it is, what its held-out rows showed, what it plans. */
export type AlignedJudgeOption = {
  id: string;
  name: string;
  metric: string;
  original: string;
  /** "agrees more (real): κ 0.81 vs 0.12 on 16 held-out labels" */
  proof: string;
  plan:
    | { kind: "custom"; assessmentName: string; assessmentType: "ANSWER" | "RETRIEVAL"; basedOn?: string }
    | { kind: "g_eval"; name: string; evaluationParams: string[]; writtenSteps: boolean };
};

export function alignedJudgeOption(alignment: StoredAlignment): AlignedJudgeOption {
  const comparison = storedComparison(alignment.comparison);
  const definition = alignment.definition;
  return {
    id: alignment.id,
    name: alignment.judgeName,
    metric: alignedMetricName(definition),
    original: metricShortName(alignment.metric),
    proof: comparison
      ? `${comparison.verdict}: κ ${kappaText(comparison.aligned)} vs ${kappaText(comparison.original)} on ${comparison.rows} held-out labels`
      : "not measured",
    plan:
      definition.type === "custom"
        ? {
            kind: "custom",
            assessmentName: definition.judge.assessmentName,
            assessmentType: definition.judge.assessmentType,
            ...(definition.judge.basedOn ? { basedOn: definition.judge.basedOn } : {}),
          }
        : {
            kind: "g_eval",
            name: definition.judge.name,
            evaluationParams: definition.judge.evaluationParams,
            writtenSteps: definition.judge.evaluationSteps !== undefined,
          },
  };
}
