import type { DetailItem } from "@/lib/contract/judgeResult";
import { reasonFor, together, type CallPlan, type PlanContext } from "../deepEvalCalls/callPlan";
import { detailItem, listCapNotes, scoreVerdict } from "../prompts/scoreMetrics/shared";
import { errorVerdict } from "../types";
import {
  conversationProblem,
  deepEvalTurns,
  leftOutTurns,
  slidingWindows,
  turnLabel,
  turnTag,
  unitInteractions,
  type NumberedTurn,
} from "./conversationText";
import {
  extractKnowledge,
  intentionVerdict,
  retentionVerdict,
  turnRelevancyVerdict,
  userIntentions,
  type KnowledgeData,
} from "./deepEvalConversationSteps";

/**
 * DeepEval's conversational metrics as DeepEval calls the model (research notes §2; confident-ai/deepeval
 * `deepeval/metrics/conversation_completeness/conversation_completeness.py` @ 09fb9e90,
 * `turn_relevancy/turn_relevancy.py` @ 1b67b5a6, `knowledge_retention/knowledge_retention.py` @ 02e2da72,
 * `metrics/utils.py` for the unit interactions and windows). strict_mode is applied after, as for every DeepEval
 * metric (engine/judgeItem.ts); the reason follows include_reason.
 *
 *   conversation_completeness  intentions, a verdict per intention (side by side) (+ reason)     1 + i (+1)
 *   turn_relevancy             a verdict per unit interaction, its window of 10 units (+ reason)  u (+1)
 *   knowledge_retention        knowledge per user turn, then a verdict per assistant turn after
 *                              some knowledge, each in sequence as DeepEval makes them (+ reason)  users + v (+1)
 */
const TURN_RELEVANCY_WINDOW = 10;

const conversationCompleteness: CallPlan = async (context) => {
  const problem = conversationProblem(context.input);
  if (problem) return errorVerdict(problem);
  const turns = deepEvalTurns(context.input);
  const listCap = context.settings.listCap;
  const { intentions } = await context.call(userIntentions, { turns, listCap });
  const verdicts = await together(intentions.map((intention) => context.call(intentionVerdict, { turns, intention })));
  // A verdict that is not "no" counts as satisfied; no intentions at all scores 1.
  const unsatisfied = verdicts.filter((v) => v.verdict === "no").length;
  const score = verdicts.length === 0 ? 1 : (verdicts.length - unsatisfied) / verdicts.length;
  const reason = await reasonFor(context, {
    metric: "conversation completeness",
    score,
    lowerIsBetter: false,
    heading: "User intentions the conversation did not satisfy",
    points: verdicts.flatMap((v, i) =>
      v.verdict === "no" ? [`${intentions[i]}: ${v.reason ?? "no reason given"}`] : [],
    ),
  });
  return scoreVerdict(
    score,
    reason,
    [
      {
        title: "User intentions",
        items: intentions.map((intention, i) => detailItem(intention, verdicts[i].verdict, verdicts[i].reason ?? null)),
      },
    ],
    { intentions: intentions.length, unsatisfied },
    [...leftOut(context, turns), ...listCapNotes(listCap, { intentions: intentions.length })],
  );
};

const turnRelevancy: CallPlan = async (context) => {
  const problem = conversationProblem(context.input);
  if (problem) return errorVerdict(problem);
  const turns = deepEvalTurns(context.input);
  const units = unitInteractions(turns);
  const windows = slidingWindows(units, TURN_RELEVANCY_WINDOW).map((window) => window.flat());
  const verdicts = await together(windows.map((window) => context.call(turnRelevancyVerdict, { turns: window })));
  // Every unit ends with an assistant turn: the one its window's verdict is about.
  const judged = windows.map((window) => window[window.length - 1]);
  const irrelevant = verdicts.filter((v) => v.verdict === "no").length;
  const score = verdicts.length === 0 ? 1 : (verdicts.length - irrelevant) / verdicts.length;
  const reason = await reasonFor(context, {
    metric: "turn relevancy",
    score,
    lowerIsBetter: false,
    heading: "Assistant turns irrelevant to the conversation before them",
    points: verdicts.flatMap((v, i) =>
      v.verdict === "no" ? [`${turnTag(judged[i])}: ${v.reason ?? "no reason given"}`] : [],
    ),
  });
  const items = verdicts.map((v, i) =>
    detailItem(turnLabel(judged[i]), v.verdict, v.reason ?? null, [
      ...(v.verdict === "no" ? [turnTag(judged[i])] : []),
      `window: turns ${windows[i][0].number}–${judged[i].number}`,
    ]),
  );
  return scoreVerdict(
    score,
    reason,
    [{ title: "Unit interactions (each judged with its window)", items }],
    { units: units.length, window_size: TURN_RELEVANCY_WINDOW, irrelevant },
    [...leftOut(context, turns), ...unitNotes(turns, units)],
  );
};

const knowledgeRetention: CallPlan = async (context) => {
  const problem = conversationProblem(context.input);
  if (problem) return errorVerdict(problem);
  const turns = deepEvalTurns(context.input);
  const listCap = context.settings.listCap;
  // DeepEval awaits each call in turn (in sync and async mode alike): the knowledge of every user turn, given the
  // turns before it, then the verdicts.
  const knowledge: (KnowledgeData | null)[] = turns.map(() => null);
  for (const [i, turn] of turns.entries()) {
    if (turn.role === "assistant") continue;
    knowledge[i] = (await context.call(extractKnowledge, { previous: turns.slice(0, i), message: turn, listCap })).data;
  }
  const judged: { turn: NumberedTurn; verdict: "yes" | "no"; reason: string | null }[] = [];
  for (const [i, turn] of turns.entries()) {
    if (turn.role !== "assistant") continue;
    const accumulated = knowledge
      .slice(0, i)
      .filter((k): k is KnowledgeData => k !== null && Object.keys(k).length > 0);
    if (accumulated.length === 0) continue;
    const verdict = await context.call(retentionVerdict, { message: turn, knowledge: accumulated });
    judged.push({ turn, verdict: verdict.verdict, reason: verdict.reason ?? null });
  }
  // "yes" is a lapse (forgets or contradicts): the score is the share of "no". No verdict at all scores 1, as the
  // research notes read it @ a2e0d4cf (the version stored @ 02e2da72 still returned 0 there).
  const lapses = judged.filter((j) => j.verdict === "yes");
  const score = judged.length === 0 ? 1 : (judged.length - lapses.length) / judged.length;
  const reason = await reasonFor(context, {
    metric: "knowledge retention",
    score,
    lowerIsBetter: false,
    heading: "Assistant turns that forget or contradict what the user said",
    points: lapses.map((j) => `${turnTag(j.turn)}: ${j.reason ?? "no reason given"}`),
  });
  const given: DetailItem[] = turns.flatMap((turn, i) => {
    const data = knowledge[i];
    return data && Object.keys(data).length > 0 ? [detailItem(knowledgeText(turn, data), "given", null)] : [];
  });
  return scoreVerdict(
    score,
    reason,
    [
      {
        title: "Assistant turns (each judged against the knowledge given before it)",
        // DeepEval's "yes" is the lapse: shown as words, so the chip does not read "yes" as good.
        items: judged.map((j) =>
          detailItem(
            turnLabel(j.turn),
            j.verdict === "yes" ? "forgets" : "retains",
            j.reason,
            j.verdict === "yes" ? [turnTag(j.turn)] : undefined,
          ),
        ),
      },
      { title: "Knowledge from the user's turns", items: given },
    ],
    { assistant_turns_judged: judged.length, lapses: lapses.length },
    [
      ...leftOut(context, turns),
      ...(judged.length === 0 ? ["No assistant turn followed any knowledge from the user: nothing was judged."] : []),
    ],
  );
};

function knowledgeText(turn: NumberedTurn, data: KnowledgeData): string {
  const facts = Object.entries(data).map(
    ([key, value]) => `${key}: ${Array.isArray(value) ? value.join(", ") : value}`,
  );
  return `Turn ${turn.number}: ${facts.join("; ")}`;
}

function leftOut(context: PlanContext, turns: NumberedTurn[]): string[] {
  const count = leftOutTurns(context.input, turns);
  return count > 0
    ? [
        `${count} turn(s) neither user nor assistant (system, tool, …) were left out: DeepEval's turns are one or the other.`,
      ]
    : [];
}

/** What DeepEval's unit interactions leave out of turn relevancy, said, so a reviewer is not surprised. */
function unitNotes(turns: NumberedTurn[], units: NumberedTurn[][]): string[] {
  const inUnits = units.reduce((sum, unit) => sum + unit.length, 0);
  if (units.length === 0)
    return [
      "No unit interaction (a user turn and the assistant's answer): nothing was judged, which DeepEval scores 1.",
    ];
  return inUnits < turns.length
    ? [
        `The last ${turns.length - inUnits} turn(s) have no assistant answer after them: DeepEval's unit interactions leave them out.`,
      ]
    : [];
}

export const DEEPEVAL_CONVERSATION_PLANS: Partial<Record<string, CallPlan>> = {
  "conversation/deepeval/conversation_completeness": conversationCompleteness,
  "conversation/deepeval/turn_relevancy": turnRelevancy,
  "conversation/deepeval/knowledge_retention": knowledgeRetention,
};
