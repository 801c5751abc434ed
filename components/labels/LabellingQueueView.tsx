import Link from "next/link";
import { CardFrame } from "@/components/ui/Card";
import { ProgressBar } from "@/components/ui/ProgressBar";
import { getDb } from "@/lib/db/client";
import { userIdentitiesById } from "@/lib/db/accounts/userQueries";
import { DEFAULT_QUEUE_SETTING, readLabelQueueSettings } from "@/lib/db/labels/labelQueueSettings";
import { readMetricLabellers } from "@/lib/db/labels/peopleLabelQueries";
import { getLabellingQueue } from "@/lib/labels/labellingQueue";
import { labellerName } from "@/lib/labels/labellerName";
import { QueueSettingForm } from "./QueueSettingForm";
import { queueRowHref, type LabelQueueQuery } from "@/lib/urlState/labelQueueQuery";
import { metricShortName } from "@/lib/urlState/runRowQuery";

const SHOWN = 50;

/**
 * The queue of one metric: progress toward the target, per verdict, and the
 * next units, each a link to its row with the request's first line (as text).
 * Rows whose label was given on another response are neither offered nor
 * counted; how many is said. Asking for several labels per row, a row is
 * done once that many people labelled it: each labeller is offered the rows
 * they have not labelled (blind: the judge's verdict hidden when the setting
 * says so), and each person's progress is shown.
 */
export async function LabellingQueueView({
  run,
  query,
  viewer,
}: {
  run: { id: string; datasetId: string };
  query: LabelQueueQuery & { queue: string };
  viewer: { id: string; canLabel: boolean };
}) {
  const db = getDb();
  const setting = (await readLabelQueueSettings(db, run.datasetId)).get(query.queue) ?? DEFAULT_QUEUE_SETTING;
  const queue = await getLabellingQueue(db, run, query.queue, {
    target: query.target,
    seed: query.seed,
    viewer: viewer.id,
    labelsPerRow: setting.labelsPerRow,
  });
  if ("error" in queue)
    return (
      <CardFrame>
        <p className="text-sm text-red-800">{queue.error}</p>
      </CardFrame>
    );
  const done = queue.target === 0 ? 1 : queue.labelled / queue.target;
  const several = setting.labelsPerRow > 1;
  const judgeHidden = several && setting.hideJudge;
  const labellers = several ? await readMetricLabellers(db, run.datasetId, query.queue) : [];
  const names = await userIdentitiesById(
    db,
    labellers.map((l) => l.labeller),
  );
  return (
    <CardFrame data-testid="labelling-queue" className="space-y-3">
      {viewer.canLabel && (
        <QueueSettingForm
          runId={run.id}
          metric={query.queue}
          labelsPerRow={setting.labelsPerRow}
          hideJudge={setting.hideJudge}
        />
      )}
      {several && (
        <div className="text-xs text-slate-700" data-testid="queue-people">
          <p>
            Each row is done once {setting.labelsPerRow} people labelled it. Blind: you see the others&apos; labels of a
            row only after giving yours{judgeHidden ? ", and the judge's verdict too" : ""}. You labelled{" "}
            <strong>{queue.yours}</strong> of this run&apos;s rows
            {queue.held > 0 &&
              `; ${queue.held} ${queue.held === 1 ? "row is" : "rows are"} held by another labeller for its last label`}
            .
          </p>
          {labellers.length > 0 && (
            <ul className="mt-1 flex flex-wrap gap-3">
              {labellers.map((l) => (
                <li key={l.labeller}>
                  {l.labeller === viewer.id
                    ? "you"
                    : l.labeller === ""
                      ? "unnamed"
                      : labellerName({ labelledBy: l.labeller, source: "import" }, names)}
                  : <strong>{l.labels}</strong>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div>
        <p className="mb-1 text-sm" data-testid="queue-progress">
          <strong>{queue.labelled}</strong> of {queue.target} labelled for {metricShortName(query.queue)}
          {queue.target < queue.requestedTarget && ` (the run judged only ${queue.target})`}
        </p>
        <ProgressBar value={done} label={`Labelled ${queue.labelled} of ${queue.target}`} tone="emerald" />
      </div>
      <ul className="flex flex-wrap gap-4 text-xs text-slate-700">
        {queue.strata.map((stratum, index) => (
          <li key={stratum.verdict}>
            {judgeHidden ? (
              `stratum ${index + 1}`
            ) : (
              <>
                judge said <strong>{stratum.verdict}</strong>
              </>
            )}
            : {stratum.labelled} labelled of {stratum.allocated} wanted ({stratum.available} judged)
          </li>
        ))}
      </ul>
      {queue.otherResponse > 0 && (
        <p className="text-xs text-slate-700" data-testid="queue-other-response">
          {queue.otherResponse === 1 ? "1 label was" : `${queue.otherResponse} labels were`} given on another response
          than the one this run judged, so {queue.otherResponse === 1 ? "it is" : "they are"} left out of the counts
          above and not offered here; labelling {queue.otherResponse === 1 ? "its row" : "one of those rows"} again
          replaces its label.
        </p>
      )}
      {queue.next.length === 0 ? (
        <p className="text-sm text-emerald-800">The target is reached: nothing left to label in this queue.</p>
      ) : (
        <ol className="divide-y divide-slate-100 text-sm">
          {queue.next.slice(0, SHOWN).map((unit) => (
            <li key={`${unit.rowId}:${unit.chunkPosition}`} className="flex items-center gap-3 py-1">
              <Link href={queueRowHref(run.id, unit.rowId, query)} className="shrink-0 text-indigo-700 hover:underline">
                Row {unit.rowNumber}
                {unit.chunkPosition >= 0 && `, chunk ${unit.chunkPosition + 1}`}
              </Link>
              {!judgeHidden && <span className="shrink-0 text-xs text-slate-600">judge said {unit.verdict}</span>}
              {unit.requestLine && (
                <span
                  className="min-w-0 truncate text-xs text-slate-800"
                  data-testid="queue-request"
                  title={unit.requestLine}
                >
                  {unit.requestLine}
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
      {queue.next.length > SHOWN && (
        <p className="text-xs text-slate-500">
          The next {SHOWN} of {queue.next.length}; on a row, ] or Shift+N opens the next one.
        </p>
      )}
    </CardFrame>
  );
}
