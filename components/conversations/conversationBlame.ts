import { metricLabel } from "@/components/runs/metricLabel";
import type { ConversationJudgment } from "@/lib/db/datasets/conversationQueries";

/** One judge's blame of one turn: its short name, and why (the item's reason, else what its group lists). */
export type TurnBlame = { metric: string; judge: string; reason: string };

/** The tag a conversation judge gives the item of a turn it blames (lib/judges/conversationCalls/conversationText.ts turnTag). */
const TURN_TAG = /^turn (\d+)$/;
const MAX_REASON_CHARS = 300;

/**
 * The turns the conversation judges blamed, by turn number (1 is the conversation's first turn, system turns
 * counted, as the judges number them): every `turn N` tag of a finished verdict's details. A judge that passed
 * may still blame a turn (DeepEval's scores pass with a lapse or two), and the reviewer should see which.
 */
export function blamesByTurn(judgments: readonly ConversationJudgment[]): Map<number, TurnBlame[]> {
  const blames = new Map<number, TurnBlame[]>();
  for (const judgment of judgments) {
    if (judgment.status !== "done" || !judgment.details) continue;
    for (const group of judgment.details.groups)
      for (const item of group.items)
        for (const tag of item.tags ?? []) {
          const number = Number(TURN_TAG.exec(tag)?.[1] ?? Number.NaN);
          if (!Number.isInteger(number)) continue;
          const of = blames.get(number) ?? [];
          // One line per judge and turn: a judge that lists a turn twice says nothing new the second time.
          if (of.some((blame) => blame.metric === judgment.metric)) continue;
          of.push({
            metric: judgment.metric,
            judge: metricLabel(judgment.metric),
            reason: clip(item.reason ?? group.title),
          });
          blames.set(number, of);
        }
  }
  return blames;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_REASON_CHARS ? `${flat.slice(0, MAX_REASON_CHARS - 1)}…` : flat;
}
