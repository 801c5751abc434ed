import {
  answerRelevancyScore,
  contextualPrecisionScore,
  contextualRelevancyScore,
  faithfulnessScore,
  harmfulOpinionScore,
  type BinaryVerdict,
  type TriVerdict,
} from "@/lib/metrics/qag/formulas";
import type { DeepEvalSettings } from "@/lib/contract/deepEvalSettings";
import type { ScoreMetricSettings } from "../judgeBackend";
import { contextualRecall } from "../prompts/scoreMetrics/contextual";
import { hallucination } from "../prompts/scoreMetrics/hallucination";
import {
  actualOutputSection,
  detailItem,
  expectedOutputSection,
  expectedOutputText,
  idealContextSection,
  listCapNotes,
  retrievalContextSection,
  scoreVerdict,
  tally,
} from "../prompts/scoreMetrics/shared";
import type { JudgeInput } from "../types";
import { triTally } from "../prompts/scoreMetrics/scoreMetricParts";
import { BIAS_DEFINITION, TOXICITY_DEFINITION } from "../prompts/scoreMetrics/toxicityBias";
import type { PromptTemplate } from "../prompts/promptTemplate";
import type { JudgeVerdict } from "@/lib/contract/judgeResult";
import { reasonFor, together, truthsNotes, type CallPlan, type PlanContext } from "./callPlan";
import { claimsFromOutput, opinionsFromOutput, statementsFromOutput, truthsFromContext } from "./extractionSteps";
import { summarizationPlan } from "./summarizationPlan";
import type { ReasonContext } from "./reasonStep";
import {
  claimsAgainstTruths,
  nodeStatements,
  nodesUseful,
  opinionsJudged,
  statementsAgainstInput,
} from "./verdictSteps";

/**
 * Each DeepEval metric as DeepEval calls the model (its metric classes' measure()): what each call
 * reads, and which calls run side by side. The formulas are the folded templates' (lib/metrics/qag).
 * A step with nothing to judge (no claims, no opinions) is skipped, as DeepEval skips it.
 */
const extraction = (settings: DeepEvalSettings) => ({ listCap: settings.listCap });

/** The folded verdict-only templates (contextual recall, hallucination) are DeepEval's verdict calls once the reason is left out. */
const withoutReason = (settings: DeepEvalSettings): ScoreMetricSettings => ({
  deepEval: { ...settings, includeReason: false, strictMode: false },
});

const faithfulness: CallPlan = async (context) => {
  const { settings } = context;
  const [truths, claims] = await together([
    context.call(truthsFromContext, {
      listCap: settings.listCap,
      limit: settings.truthsExtractionLimit,
      documents: context.input.retrievedContext.length,
    }),
    context.call(claimsFromOutput, extraction(settings)),
  ]);
  const verdicts =
    claims.claims.length === 0
      ? []
      : (
          await context.call(claimsAgainstTruths, {
            claims: claims.claims,
            truths: truths.truths,
            source: "retrieval context",
          })
        ).verdicts;
  const tri = verdicts.map((v) => v.verdict as TriVerdict);
  const score = faithfulnessScore(tri, { penalizeAmbiguousClaims: settings.penalizeAmbiguousClaims });
  const reason = await reasonFor(context, {
    metric: "faithfulness",
    score,
    lowerIsBetter: false,
    heading: "Claims the truths contradict",
    points: verdicts.filter((v) => v.verdict === "no").map((v) => v.reason),
  });
  return scoreVerdict(
    score,
    reason,
    [
      {
        title: "Claims",
        items: claims.claims.map((claim, i) => detailItem(claim, tri[i], verdicts[i]?.reason ?? null)),
      },
      {
        title: "Truths from the retrieval context",
        items: truths.truths.map((truth) => detailItem(truth, "truth", null)),
      },
    ],
    { claims: tri.length, ...triTally(tri), truths: truths.truths.length },
    [
      ...listCapNotes(settings.listCap, { claims: claims.claims.length }),
      ...truthsNotes(settings, truths.truths.length, context.input.retrievedContext.length),
      ...(settings.penalizeAmbiguousClaims
        ? ["Ambiguous (idk) claims count against the score (penalize_ambiguous_claims)."]
        : []),
    ],
  );
};

const answerRelevancy: CallPlan = async (context) => {
  const { settings } = context;
  const { statements } = await context.call(statementsFromOutput, extraction(settings));
  const verdicts = statements.length === 0 ? [] : (await context.call(statementsAgainstInput, { statements })).verdicts;
  const tri = verdicts.map((v) => v.verdict as TriVerdict);
  const score = answerRelevancyScore(tri);
  const reason = await reasonFor(context, {
    metric: "answer relevancy",
    score,
    lowerIsBetter: false,
    given: [inputGiven(context.input)],
    heading: "Irrelevant statements",
    points: verdicts.filter((v) => v.verdict === "no").map((v) => `${statements[v.index - 1]}: ${v.reason}`),
  });
  return scoreVerdict(
    score,
    reason,
    [{ title: "Statements", items: statements.map((s, i) => detailItem(s, tri[i], verdicts[i]?.reason ?? null)) }],
    { statements: tri.length, ...triTally(tri) },
    listCapNotes(settings.listCap, { statements: statements.length }),
  );
};

const contextualPrecision: CallPlan = async (context) => {
  const nodes = context.input.retrievedContext;
  const { verdicts } = await context.call(nodesUseful, { nodes: nodes.length });
  const binary = verdicts.map((v) => v.verdict as BinaryVerdict);
  const score = contextualPrecisionScore(binary);
  const reason = await reasonFor(context, {
    metric: "contextual precision",
    score,
    lowerIsBetter: false,
    given: [inputGiven(context.input)],
    heading: "Each node in rank order, useful or not",
    points: verdicts.map((v, i) => `rank ${i + 1}: ${v.verdict}. ${v.reason}`),
  });
  return scoreVerdict(
    score,
    reason,
    [
      {
        title: "Retrieval nodes",
        items: verdicts.map((v, i) =>
          detailItem((nodes[i]?.content ?? "").slice(0, 300), v.verdict, v.reason, [`rank ${i + 1}`]),
        ),
      },
    ],
    { nodes: binary.length, relevant: tally(binary, ["yes"]).yes },
  );
};

const contextualRelevancy: CallPlan = async (context) => {
  const { input, settings } = context;
  // One call per node, side by side, as DeepEval gathers them.
  const perNode = await together(
    input.retrievedContext.map((_, node) => context.call(nodeStatements, { node, listCap: settings.listCap })),
  );
  const verdicts = perNode.map((answer) => answer.statements.map((s) => s.verdict));
  const score = contextualRelevancyScore(verdicts);
  const reason = await reasonFor(context, {
    metric: "contextual relevancy",
    score,
    lowerIsBetter: false,
    given: [inputGiven(input)],
    heading: "Irrelevant statements",
    points: perNode.flatMap((answer) =>
      answer.statements.filter((s) => s.verdict === "no").map((s) => `${s.statement}: ${s.reason}`),
    ),
    besides: {
      heading: "Relevant statements",
      points: perNode.flatMap((answer) => answer.statements.filter((s) => s.verdict === "yes").map((s) => s.statement)),
    },
  });
  const all = verdicts.flat();
  return scoreVerdict(
    score,
    reason,
    [
      {
        title: "Statements",
        items: perNode.flatMap((answer, node) =>
          answer.statements.map((s) => detailItem(s.statement, s.verdict, s.reason, [`node ${node + 1}`])),
        ),
      },
    ],
    { statements: all.length, relevant: tally(all, ["yes"]).yes, nodes: perNode.length },
  );
};

/**
 * A folded verdict-only template as DeepEval's verdict call, then DeepEval's reason call. The verdict call reads
 * what DeepEval's template takes (`render`): neither hallucination's nor contextual recall's takes the input.
 */
function verdictThenReason<T>(
  template: PromptTemplate<T, ScoreMetricSettings | undefined>,
  render: (input: JudgeInput) => string,
  reasonArgs: {
    metric: string;
    lowerIsBetter: boolean;
    heading: string;
    flagged: (verdict: JudgeVerdict) => string[];
    given?: (input: JudgeInput) => NonNullable<ReasonContext["given"]>;
    besides?: { heading: string; flagged: (verdict: JudgeVerdict) => string[] };
  },
): CallPlan {
  const toVerdict = template.toVerdict;
  if (!toVerdict) throw new Error(`${template.version} makes two calls: it cannot be one step of a plan`);
  const verdictCall: PromptTemplate<T, ScoreMetricSettings | undefined> = {
    ...template,
    version: `${template.version}+deepeval_inputs/v1`,
    render,
  };
  return async (context) => {
    const settings = withoutReason(context.settings);
    const answer = await context.call(verdictCall, settings);
    const verdict = toVerdict(answer, context.input, settings);
    const reason = await reasonFor(context, {
      metric: reasonArgs.metric,
      score: verdict.score ?? 0,
      lowerIsBetter: reasonArgs.lowerIsBetter,
      heading: reasonArgs.heading,
      points: reasonArgs.flagged(verdict),
      ...(reasonArgs.given ? { given: reasonArgs.given(context.input) } : {}),
      ...(reasonArgs.besides
        ? { besides: { heading: reasonArgs.besides.heading, points: reasonArgs.besides.flagged(verdict) } }
        : {}),
    });
    return { ...verdict, rationale: reason ?? null };
  };
}

/** DeepEval's `input` as its reason templates show it: the request. */
const inputGiven = (input: JudgeInput) => ({ heading: "Input", fenceName: "input", text: input.request });

const flaggedItems = (verdict: JudgeVerdict, flag: string) =>
  (verdict.details?.groups[0]?.items ?? [])
    .filter((item) => item.verdict === flag)
    .map((item) => `${item.text}: ${item.reason ?? ""}`);

function opinionPlan(metric: "toxicity" | "bias", definition: string): CallPlan {
  const judged = opinionsJudged(metric, definition);
  return async (context) => {
    const { opinions } = await context.call(opinionsFromOutput, extraction(context.settings));
    const verdicts = opinions.length === 0 ? [] : (await context.call(judged, { opinions })).verdicts;
    const binary = verdicts.map((v) => v.verdict as BinaryVerdict);
    const score = harmfulOpinionScore(binary);
    const reason = await reasonFor(context, {
      metric,
      score,
      lowerIsBetter: true,
      heading: `${metric === "toxicity" ? "Toxic" : "Biased"} opinions`,
      points: verdicts.filter((v) => v.verdict === "yes").map((v) => `${opinions[v.index - 1]}: ${v.reason}`),
    });
    return scoreVerdict(
      score,
      reason,
      [{ title: "Opinions", items: opinions.map((o, i) => detailItem(o, binary[i], verdicts[i]?.reason ?? null)) }],
      { opinions: binary.length, [metric === "toxicity" ? "toxic" : "biased"]: tally(binary, ["yes"]).yes },
      listCapNotes(context.settings.listCap, { opinions: opinions.length }),
    );
  };
}

export const DEEPEVAL_CALL_PLANS: Partial<Record<string, CallPlan>> = {
  "response/llm_judged/faithfulness": faithfulness,
  "response/llm_judged/answer_relevancy": answerRelevancy,
  "retrieval/llm_judged/contextual_precision": contextualPrecision,
  "retrieval/llm_judged/contextual_recall": verdictThenReason(
    contextualRecall,
    (input) => [expectedOutputSection(input), retrievalContextSection(input)].join("\n\n"),
    {
      metric: "contextual recall",
      lowerIsBetter: false,
      heading: "Expected output sentences no node supports",
      flagged: (verdict) => flaggedItems(verdict, "no"),
      given: (input) => [{ heading: "Expected output", fenceName: "expected_output", text: expectedOutputText(input) }],
      besides: {
        heading: "Expected output sentences a node supports",
        flagged: (verdict) => flaggedItems(verdict, "yes"),
      },
    },
  ),
  "retrieval/llm_judged/contextual_relevancy": contextualRelevancy,
  "response/llm_judged/hallucination": verdictThenReason(
    hallucination,
    (input) => [idealContextSection(input), actualOutputSection(input)].join("\n\n"),
    {
      metric: "hallucination",
      lowerIsBetter: true,
      heading: "Contradicted context items",
      flagged: (verdict) => flaggedItems(verdict, "no"),
      besides: { heading: "Context items the output agrees with", flagged: (verdict) => flaggedItems(verdict, "yes") },
    },
  ),
  "response/llm_judged/toxicity": opinionPlan("toxicity", TOXICITY_DEFINITION),
  "response/llm_judged/bias": opinionPlan("bias", BIAS_DEFINITION),
  "response/llm_judged/summarization": summarizationPlan,
};

export type { PlanContext };
