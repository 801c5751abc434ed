import { CardFrame } from "@/components/ui/Card";
import { ColumnHeaders } from "@/components/ui/ColumnHeaders";
import { getDb } from "@/lib/db/client";
import { compareRunAgreement } from "@/lib/labels/compareAgreement";
import { alphaText, intervalText } from "@/lib/labels/peopleAgreementText";
import { JudgeName } from "./JudgeName";
import { kappaText, percentText, scoreText } from "./agreementFormat";

type ComparedRun = { id: string; datasetId: string; name: string; status: string; finishedAt: Date | null };

/**
 * How well two runs (two prompt versions, two judge models) agree with the
 * same people, per labelled metric, side by side, with the exact McNemar test
 * on the labels both runs judged. Shown only when the dataset has labels.
 */
export async function CompareAgreementTable({
  baseline,
  candidate,
}: {
  baseline: ComparedRun;
  candidate: ComparedRun;
}) {
  const rows = (await compareRunAgreement(getDb(), baseline, candidate)).filter(
    (row) => row.a.labelled + row.a.errors + row.b.labelled + row.b.errors > 0,
  );
  if (rows.length === 0) return null;
  return (
    <CardFrame aria-labelledby="compare-agreement-title" data-testid="compare-agreement">
      <h2 id="compare-agreement-title" className="text-sm font-semibold">
        Agreement with human labels
      </h2>
      <p className="text-xs text-slate-600">
        {baseline.name} (baseline) against {candidate.name}. p: exact McNemar test on the labels both runs judged (does
        one agree with people more often?). People&apos;s α: how far the labellers agree with each other, with its 95 %
        interval (rows resampled): the ceiling both runs&apos; agreement is held to.
      </p>
      <div className="mt-2 overflow-x-auto">
        <table className="w-full text-left text-sm tabular-nums">
          <caption className="sr-only">Agreement of each run&apos;s judges with the human labels</caption>
          <ColumnHeaders
            columns={[
              "Judge",
              "Run",
              "κ (95 % CI)",
              "Raw agreement",
              "Labelled · errors",
              "Spearman · MAD",
              "Paired test",
              "People's α",
            ]}
          />
          <tbody>
            {rows.flatMap((row) =>
              (
                [
                  [baseline, row.a],
                  [candidate, row.b],
                ] as const
              ).map(([run, figures], index) => {
                const scores = scoreText(figures);
                return (
                  <tr
                    key={`${row.metric}:${run.id}`}
                    className={index === 0 ? "border-t border-slate-200" : ""}
                    data-metric={row.metric}
                  >
                    {index === 0 && (
                      <th scope="rowgroup" rowSpan={2} className="py-1 pr-3 align-top font-normal">
                        <JudgeName metric={row.metric} perChunk={figures.perChunk} />
                      </th>
                    )}
                    <td className="py-1 pr-3 text-xs">{run.name}</td>
                    <td className="py-1 pr-3">{kappaText(figures)}</td>
                    <td className="py-1 pr-3">{percentText(figures.rawAgreement)}</td>
                    <td className="py-1 pr-3">
                      {figures.labelled} · {figures.errors}
                    </td>
                    <td className="py-1 pr-3 text-xs">{scores ? `${scores.spearman} · ${scores.mad}` : "–"}</td>
                    {index === 0 && (
                      <td rowSpan={2} className="py-1 align-top text-xs">
                        {row.paired
                          ? `p = ${row.paired.pValue.toPrecision(2)} on ${row.paired.pairs} labels (${percentText(row.paired.agreementA)} vs ${percentText(row.paired.agreementB)})`
                          : "no label judged by both"}
                      </td>
                    )}
                    {index === 0 && (
                      <td rowSpan={2} className="py-1 pl-3 align-top text-xs" data-testid="compare-people-alpha">
                        {row.people
                          ? `${alphaText(row.people.alpha)} ${intervalText(row.people.unitsInterval)} (${row.people.level}, ${row.people.pairableRows} rows)`
                          : "one labeller"}
                      </td>
                    )}
                  </tr>
                );
              }),
            )}
          </tbody>
        </table>
      </div>
    </CardFrame>
  );
}

/** The compare page's slot: the baseline and the chosen candidate on the same dataset (labels belong to a dataset's rows). */
export function CompareAgreement({
  runs,
  baselineId,
  candidateId,
}: {
  runs: ComparedRun[];
  baselineId: string;
  candidateId: string;
}) {
  const baseline = runs.find((run) => run.id === baselineId);
  const candidate = runs.find((run) => run.id === candidateId);
  return baseline && candidate && baseline.datasetId === candidate.datasetId ? (
    <CompareAgreementTable baseline={baseline} candidate={candidate} />
  ) : null;
}
