import { alignedMetricName } from "@/lib/alignment/alignedDefinition";
import { storedComparison } from "@/lib/alignment/heldOutComparison";
import { alignmentPromptChars } from "@/lib/alignment/alignmentEstimate";
import type { StoredAlignment } from "@/lib/db/alignments/judgeAlignments";
import { metricShortName } from "@/lib/urlState/runRowQuery";
import { percentText } from "@/components/labels/agreementFormat";
import type { AgreementSummary } from "@/lib/stats/agreement";

/** κ alone, its interval and notes left to the alignment's page. */
const kappaPoint = (summary: AgreementSummary) =>
  summary.kappa.defined ? summary.kappa.kappa.toFixed(2) : "undefined";

/** An adopted aligned judge as the run form offers it: what it is, what its held-out rows showed, what it plans. */
export type AlignedJudgeOption = {
  id: string;
  name: string;
  metric: string;
  original: string;
  /** "agrees more (real): κ 0.81 vs 0.12 on 16 held-out labels" */
  proof: string;
  plan:
    | {
        kind: "custom";
        assessmentName: string;
        assessmentType: "ANSWER" | "RETRIEVAL";
        basedOn?: string;
        promptChars: number;
      }
    | { kind: "g_eval"; name: string; evaluationParams: string[]; writtenSteps: boolean; promptChars: number };
};

export function alignedJudgeOption(alignment: StoredAlignment): AlignedJudgeOption {
  const comparison = storedComparison(alignment.comparison);
  const definition = alignment.definition;
  const alignedChars = definition.judge.alignment ? alignmentPromptChars(definition.judge.alignment) : 0;
  return {
    id: alignment.id,
    name: alignment.judgeName,
    metric: alignedMetricName(definition),
    original: metricShortName(alignment.metric),
    proof: comparison
      ? `${comparison.verdict}: κ ${kappaPoint(comparison.aligned)} vs ${kappaPoint(comparison.original)}, agreement ${percentText(comparison.aligned.rawAgreement)} vs ${percentText(comparison.original.rawAgreement)} on ${comparison.rows} held-out labels`
      : "not measured",
    plan:
      definition.type === "custom"
        ? {
            kind: "custom",
            assessmentName: definition.judge.assessmentName,
            assessmentType: definition.judge.assessmentType,
            ...(definition.judge.basedOn ? { basedOn: definition.judge.basedOn } : {}),
            promptChars: alignedChars,
          }
        : {
            kind: "g_eval",
            name: definition.judge.name,
            evaluationParams: definition.judge.evaluationParams,
            writtenSteps: definition.judge.evaluationSteps !== undefined,
            promptChars: alignedChars,
          },
  };
}
