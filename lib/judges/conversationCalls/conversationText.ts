import type { JudgeInput } from "../types";
import { fence } from "../prompts/fence";

/**
 * The conversation judges' view of a conversation: its turns numbered by their place in the row's conversation
 * (turn 1 is its first), so that a verdict, a detail's `turn N` tag and the drill-down all name the same turn,
 * even where a judge is shown only some of the turns. Every turn goes into the prompt in a fence of its own:
 * a turn is written by the application under test or its user.
 */
export type NumberedTurn = { number: number; role: string; content: string };

/** The tag a detail item carries for the turn it blames: the drill-down highlights that turn. */
export function turnTag(turn: NumberedTurn): string {
  return `turn ${turn.number}`;
}

/** Why there is nothing to judge (no conversation, or no answer in it), or null when there is. */
export function conversationProblem(input: JudgeInput): string | null {
  const conversation = input.conversation ?? [];
  if (conversation.length === 0)
    return "No conversation to judge: the row carries none (a conversation judge runs on a session's first turn, or on a row whose request carries earlier turns).";
  if (!conversation.some((turn) => roleOf(turn) === "assistant"))
    return "The conversation has no assistant turn: there is no answer to judge.";
  return null;
}

function roleOf(turn: { role: string }): string {
  return turn.role.trim().toLowerCase();
}

function numbered(input: JudgeInput, keep: (role: string) => boolean): NumberedTurn[] {
  return (input.conversation ?? []).flatMap((turn, index) =>
    keep(roleOf(turn)) ? [{ number: index + 1, role: roleOf(turn), content: turn.content }] : [],
  );
}

/**
 * The turns MLflow's session judges read: the user's and the assistant's, and a system message (role adherence
 * takes the role from it). Tool turns are left out: MLflow adds them only for its tool-call-efficiency judge
 * (`include_tool_calls_in_conversation`), none of these four.
 */
export function mlflowTurns(input: JudgeInput): NumberedTurn[] {
  return numbered(input, (role) => role === "user" || role === "assistant" || role === "system");
}

/** The turns DeepEval's metrics read: its `Turn.role` is "user" or "assistant", nothing else. */
export function deepEvalTurns(input: JudgeInput): NumberedTurn[] {
  return numbered(input, (role) => role === "user" || role === "assistant");
}

/** How many of the row's turns a judge left out for their role (system, tool, …), for its notes. */
export function leftOutTurns(input: JudgeInput, shown: readonly NumberedTurn[]): number {
  return (input.conversation ?? []).length - shown.length;
}

/** The conversation up to turn `number`, that turn included. */
export function turnsUpTo(turns: readonly NumberedTurn[], number: number): NumberedTurn[] {
  return turns.filter((turn) => turn.number <= number);
}

/** Turns as the prompt shows them: `role: content`, each in its fence, numbered. */
export function fencedTurns(turns: readonly NumberedTurn[]): string {
  if (turns.length === 0) return "(none)";
  return turns.map((turn) => fence("turn", `${turn.role}: ${turn.content}`, { turn: turn.number })).join("\n\n");
}

/**
 * DeepEval's `get_unit_interactions` (deepeval/metrics/utils.py), rule for rule: a new unit starts at a user
 * turn that follows an assistant turn once a user has been seen (and "seen" is never reset); the last unit is
 * kept only if it has more than one turn, ends with the assistant and a user was seen. So a trailing user turn
 * (a question with no answer yet) is dropped, and an assistant turn before the first user turn is folded into
 * the first unit. Every unit kept ends with an assistant turn.
 */
export function unitInteractions(turns: readonly NumberedTurn[]): NumberedTurn[][] {
  const units: NumberedTurn[][] = [];
  let current: NumberedTurn[] = [];
  let hasUser = false;
  for (const turn of turns) {
    if (current.length > 0 && current[current.length - 1].role === "assistant" && turn.role === "user" && hasUser) {
      units.push(current);
      current = [turn];
      continue;
    }
    current.push(turn);
    if (turn.role === "user") hasUser = true;
  }
  if (current.length > 1 && current[current.length - 1].role === "assistant" && hasUser) units.push(current);
  return units;
}

/** DeepEval's `get_turns_in_sliding_window`: one window ending at each unit, of at most `size` units. */
export function slidingWindows<T>(units: readonly T[], size: number): T[][] {
  return units.map((_, i) => units.slice(Math.max(0, i - size + 1), i + 1));
}

/**
 * The answers MLflow's knowledge retention judges, one per exchange: the last assistant turn between a user turn
 * and the next (MLflow judges each trace, a user input and its one output). An assistant greeting before the
 * user spoke answers nothing; a trailing user turn has no answer yet. So never more than the user turns.
 */
export function exchangeAnswers(turns: readonly NumberedTurn[]): NumberedTurn[] {
  const answers: NumberedTurn[] = [];
  let userSeen = false;
  let answer: NumberedTurn | null = null;
  for (const turn of turns) {
    if (turn.role === "user") {
      if (answer) answers.push(answer);
      answer = null;
      userSeen = true;
    } else if (turn.role === "assistant" && userSeen) answer = turn;
  }
  if (answer) answers.push(answer);
  return answers;
}

/** A turn as a detail item names it: its number and the start of what it says. */
export function turnLabel(turn: NumberedTurn, max = 160): string {
  const text = turn.content.replace(/\s+/g, " ").trim();
  return `Turn ${turn.number} (${turn.role}): ${text.length > max ? `${text.slice(0, max - 1)}…` : text}`;
}
