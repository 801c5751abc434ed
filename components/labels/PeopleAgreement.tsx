import Link from "next/link";
import type { PeopleReport } from "@/lib/labels/peopleAgreementReport";
import { alphaText, altTestMethod, altTestVerdict, fleissText, intervalText } from "@/lib/labels/peopleAgreementText";
import type { AlphaInterval, AlphaResult } from "@/lib/stats";
import { JudgeName } from "./JudgeName";
import { percentText } from "./agreementFormat";

/**
 * Agreement between the people who labelled each metric, and the judge held to it: the people's α is
 * the ceiling a judge measured against them can reach. Shown only for metrics more than one person
 * labelled, so a dataset labelled by one person shows the panel as before.
 */
export function PeopleAgreement({
  reports,
  differHref,
}: {
  reports: PeopleReport[];
  /** The rows table filtered to a metric's rows where people differ. */
  differHref: (metric: string) => string;
}) {
  if (reports.length === 0) return null;
  return (
    <section
      className="mt-4 border-t border-slate-100 pt-3"
      aria-labelledby="people-agreement-title"
      data-testid="people-agreement"
    >
      <h3 id="people-agreement-title" className="text-sm font-semibold">
        Agreement between people
      </h3>
      <p className="mt-1 text-xs text-slate-600">
        Where several people labelled a row, the judge above is measured against the gold label: an admin&apos;s
        adjudication, else the majority (the median of scores); a tie has none and is counted here.
      </p>
      {reports.map((report) => (
        <MetricPeople key={report.metric} report={report} differHref={differHref(report.metric)} />
      ))}
    </section>
  );
}

function MetricPeople({ report, differHref }: { report: PeopleReport; differHref: string }) {
  const { agreement, gold, judge, labellers } = report;
  const verdict = judge ? altTestVerdict(judge.altTest) : null;
  const tone = { good: "text-emerald-800", bad: "text-amber-800", unknown: "text-slate-600" };
  return (
    <div className="mt-3 rounded border border-slate-200 p-3" data-metric={report.metric} data-testid="people-metric">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="text-sm font-medium">
          <JudgeName metric={report.metric} perChunk={false} />
        </p>
        <p className="text-xs text-slate-600">
          {labellers.length} labellers · {agreement.pairableRows} rows labelled by two or more · {agreement.labels}{" "}
          labels
          {report.leftOut > 0 && ` · ${report.leftOut} more labellers left out`}
        </p>
      </div>
      <div className="mt-2 grid gap-3 md:grid-cols-2">
        <div>
          <CeilingBar
            label={`People's α (${agreement.level})`}
            alpha={agreement.alpha}
            interval={agreement.unitsInterval}
            testId="people-alpha"
          />
          {judge && (
            <CeilingBar
              label="α with the judge as one more labeller"
              alpha={judge.alphaWithJudge}
              testId="judge-alpha"
            />
          )}
          <p className="mt-1 text-xs text-slate-500">
            95 % intervals: rows resampled {intervalText(agreement.unitsInterval)}; Krippendorff&apos;s bootstrap of
            pairs {intervalText(agreement.krippendorffInterval)} (thought too narrow by its critics). Marks at 0.667 and
            0.8: Krippendorff&apos;s lowest α for tentative and for firm conclusions.
          </p>
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
          <dt className="text-slate-500">Fleiss&apos; κ</dt>
          <dd className="tabular-nums" data-testid="fleiss">
            {fleissText(agreement.fleiss)}
          </dd>
          <dt className="text-slate-500">Gold labels</dt>
          <dd className="tabular-nums">
            {gold.single} one person · {gold.majority + gold.median} majority/median · {gold.adjudicated} adjudicated
          </dd>
          <dt className="text-slate-500">No gold</dt>
          <dd className="tabular-nums" data-testid="tied">
            {gold.tied} tied, left out of the judge&apos;s figures ·{" "}
            {gold.disagreed > 0 ? (
              <Link href={differHref} className="text-indigo-700 underline" data-testid="people-differ-link">
                {gold.disagreed} rows where people differ
              </Link>
            ) : (
              "no rows where people differ"
            )}
          </dd>
          {report.kind === "score" && (
            <>
              <dt className="text-slate-500">α by level</dt>
              <dd className="tabular-nums">
                {Object.entries(agreement.byLevel)
                  .map(([level, alpha]) => `${level} ${alpha.defined ? alpha.alpha.toFixed(3) : "–"}`)
                  .join(" · ")}
              </dd>
            </>
          )}
        </dl>
      </div>
      {verdict && judge && (
        <p className={`mt-2 text-sm ${tone[verdict.tone]}`} data-testid="alt-test">
          <span className="font-medium">Is the judge as good as one of your labellers?</span> {verdict.text}
          <span className="block text-xs text-slate-500">{altTestMethod(judge.altTest)}.</span>
        </p>
      )}
      <PairTable report={report} />
    </div>
  );
}

/** α on a 0–1 bar (negative shown as 0, with the number), the interval as a whisker. */
function CeilingBar({
  label,
  alpha,
  interval = null,
  testId,
}: {
  label: string;
  alpha: AlphaResult;
  interval?: AlphaInterval | null;
  testId: string;
}) {
  const clamp = (value: number) => `${Math.max(0, Math.min(1, value)) * 100}%`;
  return (
    <div className="mt-1" data-testid={testId}>
      <div className="flex justify-between text-xs">
        <span className="text-slate-600">{label}</span>
        <span className="font-medium tabular-nums">{alphaText(alpha)}</span>
      </div>
      <div className="relative mt-0.5 h-2.5 rounded bg-slate-100" aria-hidden="true">
        {alpha.defined && <div className="h-2.5 rounded bg-indigo-400" style={{ width: clamp(alpha.alpha) }} />}
        {interval && (
          <div
            className="absolute top-1/2 h-0.5 -translate-y-1/2 bg-slate-700"
            style={{ left: clamp(interval.low), width: `calc(${clamp(interval.high)} - ${clamp(interval.low)})` }}
          />
        )}
        {/* 0.667 and 0.8: Krippendorff's lowest bars for tentative and for reliable conclusions. */}
        <div className="absolute inset-y-0 left-[66.7%] w-px bg-slate-400" />
        <div className="absolute inset-y-0 left-[80%] w-px bg-slate-400" />
      </div>
    </div>
  );
}

function PairTable({ report }: { report: PeopleReport }) {
  const { labellers, agreement, judge } = report;
  const cell = (rows: number, share: number | null, alpha: AlphaResult) =>
    rows === 0 ? "–" : `${report.kind === "rating" ? percentText(share) : `α ${alphaText(alpha)}`} (${rows})`;
  const pairOf = (a: number, b: number) =>
    agreement.pairs.find((pair) => (pair.a === a && pair.b === b) || (pair.a === b && pair.b === a));
  return (
    <details className="mt-2 text-xs">
      <summary className="cursor-pointer text-indigo-700">Labeller × labeller agreement</summary>
      <div className="mt-1 overflow-x-auto">
        <table className="text-left tabular-nums" data-testid="labeller-pairs">
          <caption className="sr-only">
            Agreement between each pair of labellers, and each labeller with the judge
          </caption>
          <thead>
            <tr>
              <td />
              {labellers.map((labeller) => (
                <th key={labeller.id} scope="col" className="px-2 font-medium text-slate-600">
                  {labeller.name}
                </th>
              ))}
              {judge && (
                <th scope="col" className="px-2 font-medium text-slate-600">
                  judge
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {labellers.map((labeller, a) => {
              const withJudge = judge?.pairs.find((pair) => pair.labeller === a);
              return (
                <tr key={labeller.id} className="border-t border-slate-100">
                  <th scope="row" className="pr-2 font-medium text-slate-600">
                    {labeller.name} <span className="font-normal text-slate-400">({labeller.labels})</span>
                  </th>
                  {labellers.map((other, b) => {
                    const pair = a === b ? undefined : pairOf(a, b);
                    return (
                      <td key={other.id} className="px-2">
                        {pair ? cell(pair.rows, pair.agreement, pair.alpha) : "–"}
                      </td>
                    );
                  })}
                  {judge && (
                    <td className="px-2">
                      {withJudge ? cell(withJudge.rows, withJudge.agreement, withJudge.alpha) : "–"}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </details>
  );
}
