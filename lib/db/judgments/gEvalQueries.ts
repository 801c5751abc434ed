import type { Db } from "../client";
import { decodeVerdictDetails } from "./verdictDetails";

export type GEvalStepsView = { steps: string[]; stepsHash: string | null };

/**
 * The evaluation steps a run's G-Eval judge scored with, as stored with its results (details.groups[0],
 * and the steps hash in the prompt version `g_eval.score/v1 steps:<hash>`): the same steps for every row,
 * since they are generated once per (criteria, parameters, model). Null before any row is scored.
 */
export async function getGEvalSteps(db: Db, runId: string, metric: string): Promise<GEvalStepsView | null> {
  const item = await db.judgmentItem.findFirst({
    where: { runId, metric, status: "done", details: { not: null } },
    select: { details: true, promptVersion: true },
  });
  const details = decodeVerdictDetails(item?.details ?? null);
  if (!item || !details || details.groups.length === 0) return null;
  return {
    steps: details.groups[0].items.map((step) => step.text),
    stepsHash: /steps:([0-9a-f]+)/.exec(item.promptVersion ?? "")?.[1] ?? null,
  };
}
