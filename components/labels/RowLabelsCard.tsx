import { Card } from "@/components/ui/Card";
import { getDb } from "@/lib/db/client";
import { getRowLabelHistory, getRowLabelsOnRun, type StoredLabel } from "@/lib/db/labels/labelQueries";
import { userIdentitiesById } from "@/lib/db/accounts/userQueries";
import { labellableRunMetrics } from "@/lib/labels/labelKinds";
import { labellerName } from "@/lib/labels/labellerName";
import { compareLabelLines, labelLineKeys } from "@/lib/labels/labelLines";
import { metricShortName } from "@/lib/urlState/runRowQuery";
import { readLabelQueueSettings } from "@/lib/db/labels/labelQueueSettings";
import { readRowAdjudications, readRowPersonLabels } from "@/lib/db/labels/peopleLabelQueries";
import { rowPeopleLines, type PeopleLine } from "@/lib/labels/rowPeopleLines";
import { LabelControls, type LabelTarget } from "./LabelControls";
import { PeopleLabelsList } from "./PeopleLabelsList";

type Judgment = {
  metric: string;
  status: string;
  rating: string | null;
  score: number | null;
  threshold: number | null;
  passed: boolean | null;
  chunks: { position: number; rating: string | null; errorMessage: string | null }[];
};

/**
 * The human labels of one row beside this run's verdicts: a target per
 * labellable judged metric (per chunk for chunk relevance), who labelled it
 * and when, and the row's label history. A label belongs to the response it
 * judged: where this run judged another (a generated answer), it is shown as
 * "labelled on another response" and compared with nothing. A metric the run
 * skipped for this row has nothing to label. A role that cannot label
 * (labels.write) sees the labels without the buttons and keys.
 */
export async function RowLabelsCard({
  run,
  rowId,
  judgments,
  retrievedChunkCount,
  nextToLabelHref,
  canLabel,
  viewer,
  hiddenJudges,
}: {
  /** The run with its custom judges and config: which of its judges take a label, and of what kind. */
  run: Parameters<typeof labellableRunMetrics>[0] & { id: string; datasetId: string };
  rowId: string;
  judgments: Judgment[];
  retrievedChunkCount: number;
  nextToLabelHref: string | null;
  /** Whether the signed-in role may give labels (labels.write). */
  canLabel: boolean;
  /** Who is looking (their labels are theirs; blind labelling hides others' until they label) and whether they decide between people. */
  viewer: { id: string; adjudicates: boolean };
  /** Judges whose verdicts wait until this viewer labels (lib/labels/hiddenJudges.ts). */
  hiddenJudges: ReadonlySet<string>;
}) {
  const db = getDb();
  const labels = await getRowLabelsOnRun(db, run.id, rowId);
  const fullHistory = await getRowLabelHistory(db, rowId, 50);
  const [personLabels, adjudications, settings] = await Promise.all([
    readRowPersonLabels(db, rowId),
    readRowAdjudications(db, rowId),
    readLabelQueueSettings(db, run.datasetId),
  ]);
  const people = rowPeopleLines(personLabels, adjudications, settings, viewer);
  // Blind labelling: the history of a key the viewer has not labelled yet shows none of the others' labels.
  const blindKeys = new Set(
    people.filter((line) => line.hidden > 0).map((line) => `${line.metric}:${line.chunkPosition}`),
  );
  const history = fullHistory.filter(
    (entry) => !blindKeys.has(`${entry.metric}:${entry.chunkPosition}`) || entry.labelledBy === viewer.id,
  );
  const names = await userIdentitiesById(db, [
    ...[...labels, ...history].map((entry) => entry.labelledBy),
    ...personLabels.map((label) => label.labeller),
    ...adjudications.map((adjudication) => adjudication.decidedBy),
  ]);
  const who = (entry: { labelledBy: string | null; source: string }) => labellerName(entry, names);
  const peopleOf = (metric: string, position: number): PeopleLine | undefined =>
    people.find((line) => line.metric === metric && line.chunkPosition === position);
  // The viewer's own label where they gave one; else the gold label, unless labelling is blind for them.
  const labelOf = (metric: string, position: number): (StoredLabel & { otherResponse: boolean }) | null => {
    const line = peopleOf(metric, position);
    const own = personLabels.find(
      (label) => label.metric === metric && label.chunkPosition === position && label.labeller === viewer.id,
    );
    const gold = labels.find((label) => label.metric === metric && label.chunkPosition === position) ?? null;
    // The gold label is the viewer's own when they are its labeller and it holds their value (a median may not).
    const goldIsOwn =
      gold !== null && gold.labelledBy === viewer.id && gold.rating === own?.rating && gold.score === own?.score;
    if (own && !goldIsOwn)
      return {
        rowId,
        metric,
        chunkPosition: position,
        kind: own.kind === "score" ? ("score" as const) : ("rating" as const),
        rating: own.rating === "yes" ? "yes" : own.rating === "no" ? "no" : null,
        score: own.score,
        reason: own.reason,
        labelledBy: viewer.id,
        statedBy: null,
        labelledAt: own.labelledAt,
        source: own.source,
        revision: gold?.revision ?? 0,
        otherResponse: gold?.otherResponse ?? false,
      };
    return line && line.hidden > 0 && !own ? null : gold;
  };
  const judgeShown = (metric: string, verdict: string) =>
    hiddenJudges.has(metric) ? "hidden until you label" : verdict;
  // An import with sign-in on credits the importer; what the file claimed is shown beside it, never as the labeller.
  const stated = (statedBy: string | null) => (statedBy ? `, stated by ${statedBy}` : "");
  // Where several people labelled a key and the viewer gave none, the label shown is the gold one, said so.
  const goldOfSeveral = (metric: string, position: number) =>
    (peopleOf(metric, position)?.people.length ?? 0) > 1 &&
    !personLabels.some((own) => own.metric === metric && own.chunkPosition === position && own.labeller === viewer.id);
  const when = (label: StoredLabel | null) =>
    label
      ? `${goldOfSeveral(label.metric, label.chunkPosition) ? "gold label of several people, " : ""}by ${who(label)}${stated(label.statedBy)}, ${shortTime(label.labelledAt)} (${label.source})`
      : null;

  const labellable = new Map(labellableRunMetrics(run).map((entry) => [entry.metric, entry]));
  const lines = judgments.flatMap((judgment) => {
    const resolved = labellable.get(judgment.metric);
    // A metric skipped for this row gave no verdict to label against.
    if (!resolved || judgment.status === "skipped") return [];
    const short = metricShortName(judgment.metric);
    if (resolved.kind === "chunk_rating") {
      return Array.from({ length: retrievedChunkCount }, (_, position): Omit<LabelTarget, "lineKey"> => {
        const verdict = judgment.chunks.find((chunk) => chunk.position === position);
        const judge = judgeShown(
          judgment.metric,
          verdict ? (verdict.errorMessage ? "error" : (verdict.rating ?? "–")) : "–",
        );
        const label = labelOf(judgment.metric, position);
        return {
          key: `${judgment.metric}:${position}`,
          metric: judgment.metric,
          title: `${short} · chunk ${position + 1}`,
          kind: "rating",
          chunkPosition: position,
          judge,
          label: label?.rating ?? null,
          labelledWhen: when(label),
          reason: label?.reason ?? null,
          disagrees: label?.rating != null && (judge === "yes" || judge === "no") && judge !== label.rating,
          otherResponse: false,
        };
      });
    }
    const label = labelOf(judgment.metric, -1);
    const judge = judgeShown(judgment.metric, judgeInWords(judgment));
    const labelText = label ? (label.kind === "score" ? String(label.score) : label.rating) : null;
    const otherResponse = label?.otherResponse ?? false;
    const target: Omit<LabelTarget, "lineKey"> = {
      key: judgment.metric,
      metric: judgment.metric,
      title: short,
      kind: resolved.kind,
      chunkPosition: null,
      judge,
      label: labelText,
      labelledWhen: when(label),
      reason: label?.reason ?? null,
      disagrees: !otherResponse && disagrees(judgment, label),
      otherResponse,
    };
    return [target];
  });
  const sorted = lines.sort(compareLabelLines);
  const keys = labelLineKeys(sorted);
  const targets: LabelTarget[] = sorted.map((line, index) => ({ ...line, lineKey: keys[index] }));
  const leftOut = targets.filter((target) => target.otherResponse).length;

  return (
    <Card
      title="Your labels"
      subtitle="A label belongs to the response it judged: every run and judge on this dataset that judged the same response is measured against it."
      testId="row-labels"
    >
      {targets.length === 0 ? (
        <p className="text-sm text-slate-500">No judge of this run takes a human label.</p>
      ) : (
        <LabelControls
          ids={{ runId: run.id, datasetId: run.datasetId, rowId }}
          targets={targets}
          nextToLabelHref={nextToLabelHref}
          canLabel={canLabel}
        />
      )}
      <PeopleLabelsList
        lines={people}
        runId={run.id}
        rowId={rowId}
        nameOf={(labeller) =>
          labeller === "" ? "unnamed" : labellerName({ labelledBy: labeller, source: "import" }, names)
        }
        canAdjudicate={viewer.adjudicates}
      />
      {leftOut > 0 && (
        <p className="mt-1 text-xs text-slate-600" data-testid="label-other-response-note">
          {leftOut === 1 ? "One label was" : `${leftOut} labels were`} given on another response than the one this run
          judged: {leftOut === 1 ? "it is" : "they are"} compared with none of its verdicts. Labelling here replaces{" "}
          {leftOut === 1 ? "it" : "them"} with a label of this response.
        </p>
      )}
      {canLabel ? (
        <p className="mt-1 text-xs text-slate-600" data-testid="label-keys">
          Keys: the key beside a line picks it (each judge keeps its key on every run; 1–9, then letters),{" "}
          <kbd className="font-mono">↑</kbd> / <kbd className="font-mono">↓</kbd> move the pick, then{" "}
          <kbd className="font-mono">y</kbd> / <kbd className="font-mono">n</kbd> label it (a score line takes a number
          and Enter), <kbd className="font-mono">Esc</kbd> lets go; <kbd className="font-mono">]</kbd> or{" "}
          <kbd className="font-mono">Shift+N</kbd>: next row to label. With no line picked, j / k / n move as before.
        </p>
      ) : (
        <p className="mt-1 text-xs text-slate-600" data-testid="label-read-only">
          Your role can read labels; giving them needs the runner or admin role.
        </p>
      )}
      {history.length > 0 && (
        <details className="mt-2 text-xs text-slate-700" data-testid="label-history">
          <summary className="cursor-pointer text-slate-600">History ({history.length})</summary>
          <ul className="mt-1 space-y-0.5">
            {history.map((entry) => (
              <li key={`${entry.metric}:${entry.chunkPosition}:${entry.revision}`}>
                {shortTime(entry.labelledAt)} · {who(entry)}
                {stated(entry.statedBy)} · <span className="font-mono">{metricShortName(entry.metric)}</span>
                {entry.chunkPosition >= 0 && ` chunk ${entry.chunkPosition + 1}`}:{" "}
                {entry.action === "cleared" ? "cleared" : (entry.rating ?? entry.score)} ({entry.source})
              </li>
            ))}
          </ul>
        </details>
      )}
    </Card>
  );
}

function judgeInWords(judgment: Judgment): string {
  if (judgment.status === "error") return "error";
  if (judgment.status !== "done") return judgment.status;
  if (judgment.rating) return judgment.rating;
  if (judgment.score !== null) {
    // The pass mark too: a score label is compared with the judge's pass/fail at this mark.
    const mark = judgment.threshold === null ? "" : ` at ${judgment.threshold.toFixed(2)}`;
    return `${judgment.score.toFixed(2)}${judgment.passed === null ? "" : judgment.passed ? ` (pass${mark})` : ` (fail${mark})`}`;
  }
  return "–";
}

/** As the agreement counts it: a rating against the label, a score's pass/fail at its threshold against the label's. */
function disagrees(judgment: Judgment, label: StoredLabel | null): boolean {
  if (!label || judgment.status !== "done") return false;
  if (label.kind === "rating") return judgment.rating !== null && judgment.rating !== label.rating;
  if (label.score === null || judgment.threshold === null || judgment.passed === null) return false;
  return label.score >= judgment.threshold !== judgment.passed;
}

/** "2026-11-22 18:03 UTC" from a stored ISO-like timestamp. */
function shortTime(stored: string): string {
  const date = new Date(stored);
  return Number.isNaN(date.getTime()) ? stored : `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
