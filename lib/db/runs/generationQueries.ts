import type { Db } from "../client";

/** Whether any of a run's generations is still pending or running (judging waits for every row's response). */
export async function hasOutstandingGenerations(db: Db, runId: string): Promise<boolean> {
  return (await db.generation.count({ where: { runId, status: { in: ["pending", "running"] } } })) > 0;
}

export type GenerationTemplateUse = { templateVersion: string; templateHash: string; generations: number };

/**
 * Which answer templates a run's generations were sent with, and on how many
 * rows each (a GROUP BY over the covering index). Generations not yet made
 * carry no template and are left out.
 */
export async function listGenerationTemplates(db: Db, runId: string): Promise<GenerationTemplateUse[]> {
  const groups = await db.generation.groupBy({
    by: ["templateVersion", "templateHash"],
    where: { runId, templateVersion: { not: null } },
    _count: { _all: true },
    orderBy: { templateVersion: "desc" },
  });
  return groups.map((group) => ({
    templateVersion: group.templateVersion ?? "",
    templateHash: group.templateHash ?? "",
    generations: group._count._all,
  }));
}
