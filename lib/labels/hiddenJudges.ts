import type { Db } from "@/lib/db/client";
import { isBlind, readLabelQueueSettings } from "@/lib/db/labels/labelQueueSettings";
import { readRowPersonLabels } from "@/lib/db/labels/peopleLabelQueries";

/**
 * The judges whose verdicts a labeller must not see on a row yet: metrics whose queue asks for several
 * labels per row and hides the judge, that this labeller has not labelled on this row. Someone who decides
 * between people's labels sees everything.
 */
export async function judgesHiddenFrom(
  db: Db,
  key: { datasetId: string; rowId: string },
  viewer: { id: string; adjudicates: boolean },
): Promise<Set<string>> {
  if (viewer.adjudicates) return new Set();
  const settings = await readLabelQueueSettings(db, key.datasetId);
  const hiding = [...settings].filter(([, setting]) => isBlind(setting) && setting.hideJudge).map(([metric]) => metric);
  if (hiding.length === 0) return new Set();
  const labelled = new Set(
    (await readRowPersonLabels(db, key.rowId))
      .filter((label) => label.labeller === viewer.id)
      .map((label) => label.metric),
  );
  return new Set(hiding.filter((metric) => !labelled.has(metric)));
}
