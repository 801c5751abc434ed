import type { PeopleLine } from "@/lib/labels/rowPeopleLines";
import { metricShortName } from "@/lib/urlState/runRowQuery";
import { AdjudicateForm } from "./AdjudicateForm";

/**
 * Everyone's labels of this row, per key, where more than one person labelled (or labels are hidden from
 * the viewer until they give theirs): the adjudication view. Where people differ, an admin sets the
 * deciding label with a reason; the deciding label is the gold label until removed.
 */
export function PeopleLabelsList({
  lines,
  runId,
  rowId,
  nameOf,
  canAdjudicate,
}: {
  lines: PeopleLine[];
  runId: string;
  rowId: string;
  nameOf: (labeller: string) => string;
  canAdjudicate: boolean;
}) {
  // Keys more than one person labelled, keys with labels hidden from the viewer, and decided keys.
  const shown = lines.filter((line) => line.people.length + line.hidden > 1 || line.hidden > 0 || line.adjudication);
  if (shown.length === 0) return null;
  return (
    <section
      className="mt-3 border-t border-slate-100 pt-2"
      aria-labelledby="people-labels-title"
      data-testid="people-labels"
    >
      <h3 id="people-labels-title" className="text-xs font-semibold text-slate-700">
        Everyone&apos;s labels
      </h3>
      <ul className="mt-1 space-y-2">
        {shown.map((line) => (
          <li key={`${line.metric}:${line.chunkPosition}`} className="text-xs" data-metric={line.metric}>
            <p className="font-mono text-slate-700">
              {metricShortName(line.metric)}
              {line.chunkPosition >= 0 && ` · chunk ${line.chunkPosition + 1}`}
              {line.differ && !line.hidden && <span className="ml-2 font-sans text-amber-700">people differ</span>}
            </p>
            <ul className="ml-2">
              {line.people.map((person) => (
                <li key={person.labeller}>
                  {person.own ? "you" : nameOf(person.labeller)}: <span className="font-medium">{person.value}</span>
                  {person.reason && <span className="text-slate-500"> — {person.reason}</span>}
                </li>
              ))}
            </ul>
            {line.hidden > 0 && (
              <p className="ml-2 text-slate-500" data-testid="labels-hidden">
                {line.hidden} other {line.hidden === 1 ? "label is" : "labels are"} hidden until you give yours (blind
                labelling).
              </p>
            )}
            {line.adjudication && (
              <p className="ml-2 text-indigo-800" data-testid="adjudication">
                Decided: <span className="font-medium">{line.adjudication.rating ?? line.adjudication.score}</span> by{" "}
                {line.adjudication.decidedBy ? nameOf(line.adjudication.decidedBy) : "an admin"} —{" "}
                {line.adjudication.reason}
              </p>
            )}
            {canAdjudicate && line.hidden === 0 && (line.differ || line.adjudication) && (
              <AdjudicateForm
                runId={runId}
                rowId={rowId}
                metric={line.metric}
                chunkPosition={line.chunkPosition}
                kind={line.kind}
                decided={line.adjudication ? String(line.adjudication.rating ?? line.adjudication.score) : null}
              />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
