import type { DetailItem, JudgeVerdict } from "@/lib/contract/judgeResult";
import type { PromptCall } from "../prompts/promptTemplate";
import { detailItem } from "../prompts/scoreMetrics/shared";
import { errorVerdict } from "../types";
import { together, type CallPlan } from "../deepEvalCalls/callPlan";
import {
  conversationProblem,
  exchangeAnswers,
  leftOutTurns,
  mlflowTurns,
  turnLabel,
  turnsUpTo,
  turnTag,
  type NumberedTurn,
} from "./conversationText";
import {
  conversationalGuidelines,
  conversationalRoleAdherence,
  conversationalSafety,
  conversationCompleteness,
  lastTurnKnowledgeRetention,
  type SessionAnswer,
  type SessionContext,
} from "./mlflowSessionSteps";

/**
 * MLflow 3's session judges as MLflow calls the model (research notes §3.3; `scorers/builtin_scorers.py`):
 * yes or no, the judge's rationale, no score.
 *
 *   conversation_completeness, conversational_role_adherence, conversational_safety
 *                          the whole conversation, one call                            1
 *   knowledge_retention    one call per exchange, each reading the conversation up to
 *                          that exchange's answer; "no" if any answer is "no"           1 per exchange
 */
const wholeConversation =
  (step: PromptCall<SessionAnswer, SessionContext>, blamed: string): CallPlan =>
  async (context) => {
    const problem = conversationProblem(context.input);
    if (problem) return errorVerdict(problem);
    const turns = mlflowTurns(context.input);
    const answer = await context.call(step, { turns });
    const failing = failingTurns(answer, turns);
    return yesNoVerdict(
      answer.result,
      answer.rationale,
      failing.length > 0 ? [{ title: blamed, items: failing.map((turn) => blame(turn, "no", null)) }] : [],
      { turns: turns.length },
      leftOut(context.input, turns),
    );
  };

/**
 * KnowledgeRetention: `_LastTurnKnowledgeRetention` on the conversation up to each answer, then the worst case,
 * with MLflow's rationale ("- Turn k: ✓/✗ …", "Overall: …"). MLflow counts a trace as a turn; here k is the
 * number of the answer's turn in the conversation, the number the prompts, the tags and the drill-down use.
 */
const knowledgeRetention: CallPlan = async (context) => {
  const problem = conversationProblem(context.input);
  if (problem) return errorVerdict(problem);
  const turns = mlflowTurns(context.input);
  const answers = exchangeAnswers(turns);
  if (answers.length === 0)
    return errorVerdict("No assistant turn answers a user turn: there is no exchange whose answer to judge.");
  const judged = await together(
    answers.map((answer) => context.call(lastTurnKnowledgeRetention, { turns: turnsUpTo(turns, answer.number) })),
  );
  const failed = judged.filter((verdict) => verdict.result === "no").length;
  const total = judged.length;
  const lines = [
    `Knowledge retention evaluation across ${total} turn(s):`,
    ...judged.map(
      (verdict, i) => `- Turn ${answers[i].number}: ${verdict.result === "no" ? "✗" : "✓"} ${verdict.rationale}`,
    ),
    failed > 0
      ? `\nOverall: NO - Knowledge retention failed in ${failed} out of ${total} turn(s).`
      : `\nOverall: YES - Knowledge retention successful across all ${total} turn(s).`,
  ];
  return yesNoVerdict(
    failed > 0 ? "no" : "yes",
    lines.join("\n"),
    [
      {
        title: "Answers judged (each with the conversation up to it)",
        items: judged.map((verdict, i) => blame(answers[i], verdict.result, verdict.rationale)),
      },
    ],
    { turns_judged: total, failed },
    leftOut(context.input, turns),
  );
};

/** The turns the judge names for a "no", as far as they are turns it was shown. */
function failingTurns(answer: SessionAnswer, turns: NumberedTurn[]): NumberedTurn[] {
  if (answer.result !== "no") return [];
  return [...new Set(answer.failing_turns)].flatMap((n) => turns.filter((turn) => turn.number === n));
}

/** A turn as a detail item, tagged with its number when the judge blames it, so the drill-down highlights it. */
function blame(turn: NumberedTurn, verdict: "yes" | "no", reason: string | null): DetailItem {
  return detailItem(turnLabel(turn), verdict, reason, verdict === "no" ? [turnTag(turn)] : undefined);
}

function leftOut(input: Parameters<CallPlan>[0]["input"], turns: NumberedTurn[]): string[] {
  const count = leftOutTurns(input, turns);
  return count > 0
    ? [
        `${count} tool (or other) turn(s) were left out: MLflow shows these judges only the user, assistant and system turns.`,
      ]
    : [];
}

function yesNoVerdict(
  rating: "yes" | "no",
  rationale: string,
  groups: { title: string; items: DetailItem[] }[],
  figures: Record<string, number>,
  notes: string[],
): JudgeVerdict {
  return {
    rating,
    score: null,
    rationale,
    errorMessage: null,
    details: { groups, figures, ...(notes.length > 0 ? { notes } : {}) },
  };
}

export const MLFLOW_SESSION_PLANS: Partial<Record<string, CallPlan>> = {
  "conversation/llm_judged/conversation_completeness": wholeConversation(
    conversationCompleteness,
    "User turns with a request left unaddressed",
  ),
  "conversation/llm_judged/knowledge_retention": knowledgeRetention,
  "conversation/llm_judged/conversational_role_adherence": wholeConversation(
    conversationalRoleAdherence,
    "Assistant turns out of role",
  ),
  "conversation/llm_judged/conversational_safety": wholeConversation(conversationalSafety, "Unsafe assistant turns"),
  "conversation/llm_judged/conversational_guidelines": async (context) => {
    const guidelines = context.run?.conversation?.guidelines ?? [];
    // The run refuses the metric without guidelines; a run planned before that rule says so rather than guess.
    if (guidelines.length === 0) return errorVerdict("conversational_guidelines needs the run's guidelines");
    const problem = conversationProblem(context.input);
    if (problem) return errorVerdict(problem);
    const turns = mlflowTurns(context.input);
    const answer = await context.call(conversationalGuidelines, { turns, guidelines });
    const failing = failingTurns(answer, turns);
    return yesNoVerdict(
      answer.result,
      answer.rationale,
      [
        ...(failing.length > 0
          ? [{ title: "Assistant turns that break a guideline", items: failing.map((turn) => blame(turn, "no", null)) }]
          : []),
        { title: "Guidelines", items: guidelines.map((guideline) => detailItem(guideline, "guideline", null)) },
      ],
      { turns: turns.length, guidelines: guidelines.length },
      leftOut(context.input, turns),
    );
  },
};
