import Link from "next/link";
import { CardFrame } from "@/components/ui/Card";
import { ColumnHeaders } from "@/components/ui/ColumnHeaders";
import type { JudgeAgreement } from "@/lib/db/labels/agreementQueries";
import { getDb } from "@/lib/db/client";
import { otherResponseText } from "@/lib/labels/agreementTable";
import { KAPPA_INTERVAL_METHOD } from "@/lib/stats";
import { labelQueueHref, DEFAULT_TARGET } from "@/lib/urlState/labelQueueQuery";
import type { AgreementCellName } from "@/lib/contract/rowQueries";
import {
  agreementCellHref,
  describeAgreementCell,
  runRowsViewHref,
  type RunRowQuery,
} from "@/lib/urlState/runRowQuery";
import { alignableMetrics, type AlignableRun } from "@/lib/engine/alignment/originalJudge";
import { getCachedRunAgreement } from "@/lib/labels/agreementCache";
import { JudgeName } from "./JudgeName";
import { PeopleAgreement } from "./PeopleAgreement";
import { kappaText, percentText, scoreText } from "./agreementFormat";

/**
 * Can this run's judges be trusted? Per judge: Cohen's κ with its 95 %
 * interval, raw agreement, the confusion matrix (each cell a link to its
 * rows), the labelled count and the errors beside, and for score judges
 * Spearman and the mean absolute difference. Counted in SQL per request.
 * Labels given on another response than this run judged (a generated
 * answer's row labelled on the dataset's answer) are left out and counted
 * beside. The labelling queue is linked whether or not there are labels yet.
 */
export async function AgreementPanel({
  run,
  query,
}: {
  run: AlignableRun & { status: string; finishedAt: Date | null };
  query: RunRowQuery;
}) {
  const { judges: all, people } = await getCachedRunAgreement(getDb(), run);
  const alignable = alignableMetrics(run);
  const rows = all.filter((row) => row.labelled + row.errors > 0);
  const otherResponse = all.reduce((sum, row) => sum + row.otherResponse, 0);
  return (
    <CardFrame aria-labelledby="agreement-title" data-testid="agreement-panel">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="agreement-title" className="text-sm font-semibold">
          Agreement with human labels
        </h2>
        <p className="flex flex-wrap gap-3 text-xs text-slate-600">
          <Link
            href={`/runs/${run.id}/label`}
            className="text-indigo-700 hover:underline"
            data-testid="agreement-queue-link"
          >
            Labelling queue
          </Link>
          <Link
            href={runRowsViewHref(run.id, query, { filter: "disagrees", metric: undefined })}
            className="text-indigo-700 hover:underline"
          >
            Rows where the judge disagrees
          </Link>
        </p>
      </div>
      {otherResponse > 0 && (
        <p className="mt-2 text-xs text-slate-700" data-testid="agreement-other-response">
          {otherResponseText(otherResponse)} than the one this run judged, so{" "}
          {otherResponse === 1 ? "it is" : "they are"} in none of the figures below.
        </p>
      )}
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">
          No human labels on this run&apos;s judged metrics yet. Label rows on a row&apos;s page, upload them in a{" "}
          <code>human_labels</code> column, or open the{" "}
          <Link href={`/runs/${run.id}/label`} className="text-indigo-700 underline">
            labelling queue
          </Link>
          .
        </p>
      ) : (
        <div className="mt-2 overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="agreement-table">
            <caption className="sr-only">Agreement of each judge with the human labels</caption>
            <ColumnHeaders
              columns={[
                "Judge",
                "κ (95 % CI)",
                "Raw agreement",
                "Confusion (judge × label)",
                "Labelled",
                "Errors",
                "Spearman · MAD",
                { srOnly: "Queue and alignment" },
              ]}
            />
            <tbody>
              {rows.map((row) => (
                <AgreementRow key={row.metric} runId={run.id} row={row} alignable={alignable.has(row.metric)} />
              ))}
            </tbody>
          </table>
          <p className="mt-2 text-xs text-slate-500">
            κ: Cohen&apos;s kappa, {KAPPA_INTERVAL_METHOD}. Score judges are compared as pass/fail at the run&apos;s
            threshold; Spearman and the mean absolute difference (MAD) use the raw scores. A judge error is counted
            beside, never as agreement or disagreement.
          </p>
        </div>
      )}
      <PeopleAgreement
        reports={people}
        differHref={(metric) => runRowsViewHref(run.id, query, { filter: "people-differ", metric })}
      />
    </CardFrame>
  );
}

function AgreementRow({ runId, row, alignable }: { runId: string; row: JudgeAgreement; alignable: boolean }) {
  const scores = scoreText(row);
  const { yesYes, yesNo, noYes, noNo } = row.confusion;
  return (
    <tr className="border-t border-slate-100 align-top" data-metric={row.metric}>
      <th scope="row" className="py-1.5 pr-3 font-normal">
        <JudgeName metric={row.metric} perChunk={row.perChunk} />
      </th>
      <td className="py-1.5 pr-3 tabular-nums" data-testid="kappa">
        {kappaText(row)}
      </td>
      <td className="py-1.5 pr-3 tabular-nums">{percentText(row.rawAgreement)}</td>
      <td className="py-1.5 pr-3">
        <table className="text-xs tabular-nums" aria-label={`Confusion matrix of ${row.metric}`}>
          <thead>
            <tr>
              <td />
              <th scope="col" className="px-1 font-medium text-slate-600">
                label yes
              </th>
              <th scope="col" className="px-1 font-medium text-slate-600">
                label no
              </th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row" className="pr-1 text-right font-medium text-slate-600">
                judge yes
              </th>
              <Cell runId={runId} metric={row.metric} cell="yes-yes" count={yesYes} agree />
              <Cell runId={runId} metric={row.metric} cell="yes-no" count={yesNo} />
            </tr>
            <tr>
              <th scope="row" className="pr-1 text-right font-medium text-slate-600">
                judge no
              </th>
              <Cell runId={runId} metric={row.metric} cell="no-yes" count={noYes} />
              <Cell runId={runId} metric={row.metric} cell="no-no" count={noNo} agree />
            </tr>
          </tbody>
        </table>
      </td>
      <td className="py-1.5 pr-3 tabular-nums">{row.labelled}</td>
      <td className="py-1.5 pr-3 tabular-nums">
        {row.errors > 0 ? (
          <Link
            prefetch={false}
            href={agreementCellHref(runId, row.metric, "errors")}
            className="text-red-700 hover:underline"
          >
            {row.errors}
          </Link>
        ) : (
          0
        )}
      </td>
      <td className="py-1.5 pr-3 text-xs tabular-nums">{scores ? `${scores.spearman} · ${scores.mad}` : "–"}</td>
      <td className="py-1.5 text-xs whitespace-nowrap">
        <Link
          href={labelQueueHref(runId, { queue: row.metric, target: DEFAULT_TARGET, seed: undefined })}
          className="block text-indigo-700 hover:underline"
        >
          Label more
        </Link>
        {alignable && (
          <Link
            href={`/runs/${runId}/align?metric=${encodeURIComponent(row.metric)}`}
            className="mt-1 block text-indigo-700 hover:underline"
            data-testid="align-judge"
            title="Make a version of this judge that learns from the labels, and measure it on labelled rows it never saw"
          >
            Align
          </Link>
        )}
      </td>
    </tr>
  );
}

function Cell({
  runId,
  metric,
  cell,
  count,
  agree = false,
}: {
  runId: string;
  metric: string;
  cell: AgreementCellName;
  count: number;
  agree?: boolean;
}) {
  const tone = agree ? "bg-emerald-50 text-emerald-900" : count > 0 ? "bg-amber-50 text-amber-900" : "text-slate-500";
  return (
    <td className={`px-1 text-center ${tone}`}>
      {count > 0 ? (
        <Link
          prefetch={false}
          href={agreementCellHref(runId, metric, cell)}
          className="block rounded px-1 underline-offset-2 hover:underline"
          data-cell={cell}
          aria-label={`${count} rows where the ${describeAgreementCell(cell)}`}
        >
          {count}
        </Link>
      ) : (
        <span className="block px-1">0</span>
      )}
    </td>
  );
}
