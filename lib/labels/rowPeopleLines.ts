import type { RowAdjudication, RowPersonLabel } from "@/lib/db/labels/peopleLabelQueries";
import { isBlind, type LabelQueueSetting } from "@/lib/db/labels/labelQueueSettings";

/**
 * The row page's people's labels, per key (metric, chunk): who gave what, the gold label it makes, the
 * deciding label if any, and whether the viewer may see them yet. Blind labelling (more than one label
 * per row asked for): until the viewer gave their own label of a key, the others' are hidden (the judge's
 * verdict, when the queue hides it, is hiddenJudges.ts's). Someone who decides between people's labels (an
 * admin) is not blinded: they see everyone's labels to decide.
 */
export type PeopleLine = {
  metric: string;
  chunkPosition: number;
  kind: "rating" | "score";
  /** Everyone's labels but hidden ones; the viewer's is marked. */
  people: { labeller: string; value: string; reason: string | null; labelledAt: string; own: boolean }[];
  /** How many labels are hidden from the viewer until they give theirs. */
  hidden: number;
  /** Whether the people's values differ (what adjudication is for). */
  differ: boolean;
  adjudication: RowAdjudication | null;
};

const valueText = (label: { rating: string | null; score: number | null }) =>
  label.rating ?? (label.score === null ? "–" : String(label.score));

export function rowPeopleLines(
  labels: readonly RowPersonLabel[],
  adjudications: readonly RowAdjudication[],
  settings: ReadonlyMap<string, LabelQueueSetting>,
  viewer: { id: string; adjudicates: boolean },
): PeopleLine[] {
  const byKey = new Map<string, RowPersonLabel[]>();
  for (const label of labels) {
    const key = `${label.metric}\u0000${label.chunkPosition}`;
    byKey.set(key, [...(byKey.get(key) ?? []), label]);
  }
  const lines: PeopleLine[] = [];
  for (const group of byKey.values()) {
    const { metric, chunkPosition } = group[0];
    const setting = settings.get(metric);
    const labelledByViewer = group.some((label) => label.labeller === viewer.id);
    const blindFor = isBlind(setting) && !labelledByViewer && !viewer.adjudicates;
    const visible = group.filter((label) => !blindFor || label.labeller === viewer.id);
    lines.push({
      metric,
      chunkPosition,
      kind: group[0].kind === "score" ? "score" : "rating",
      people: visible.map((label) => ({
        labeller: label.labeller,
        value: valueText(label),
        reason: label.reason,
        labelledAt: label.labelledAt,
        own: label.labeller === viewer.id,
      })),
      hidden: group.length - visible.length,
      differ: new Set(group.map(valueText)).size > 1,
      adjudication: adjudications.find((a) => a.metric === metric && a.chunkPosition === chunkPosition) ?? null,
    });
  }
  return lines;
}
