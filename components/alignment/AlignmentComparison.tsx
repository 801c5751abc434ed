import { ColumnHeaders } from "@/components/ui/ColumnHeaders";
import type { HeldOutComparison } from "@/lib/alignment/heldOutComparison";
import { KAPPA_INTERVAL_METHOD, type AgreementSummary } from "@/lib/stats/agreement";
import { kappaText, percentText } from "@/components/labels/agreementFormat";
import { KappaIntervals } from "./KappaIntervals";

const VERDICT_TONE: Record<HeldOutComparison["verdict"], string> = {
  "agrees more (real)": "border-emerald-300 bg-emerald-50 text-emerald-900",
  "no real change": "border-slate-300 bg-slate-50 text-slate-800",
  "agrees less (real)": "border-rose-300 bg-rose-50 text-rose-900",
};

/**
 * The proof of an alignment: the original and the aligned version side by side on the same held-out rows
 * (κ with its interval, raw agreement, the confusion matrix, errors beside), the paired test of which is
 * right more often, and its verdict in words.
 */
export function AlignmentComparison({ comparison }: { comparison: HeldOutComparison }) {
  const versions = [
    { name: "Original", summary: comparison.original },
    { name: "Aligned", summary: comparison.aligned },
  ];
  const { paired } = comparison;
  return (
    <div className="space-y-3" data-testid="alignment-comparison">
      <p
        className={`rounded border px-3 py-2 text-sm ${VERDICT_TONE[comparison.verdict]}`}
        data-testid="alignment-verdict"
      >
        <strong className="font-semibold">{comparison.verdict}</strong>
        <span className="block text-xs">{comparison.words}</span>
      </p>
      <KappaIntervals versions={versions} />
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" data-testid="alignment-comparison-table">
          <caption className="sr-only">Each version&apos;s agreement with the labels on the held-out rows</caption>
          <ColumnHeaders
            columns={["Version", "κ (95 % CI)", "Raw agreement", "Confusion (judge × label)", "Judged", "Errors"]}
          />
          <tbody>
            {versions.map((version) => (
              <tr key={version.name} className="border-t border-slate-100 align-top">
                <th scope="row" className="py-1 pr-3 font-medium">
                  {version.name}
                </th>
                <td className="py-1 pr-3 font-mono text-xs">{kappaText(version.summary)}</td>
                <td className="py-1 pr-3">{percentText(version.summary.rawAgreement)}</td>
                <td className="py-1 pr-3">
                  <Confusion summary={version.summary} />
                </td>
                <td className="py-1 pr-3">{version.summary.labelled}</td>
                <td className="py-1 pr-3">{version.summary.errors}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-slate-600" data-testid="alignment-paired-test">
        Paired on {paired.pairs} held-out rows both versions judged: both right on {paired.bothAgree}, only the aligned
        version on {paired.onlyBAgrees}, only the original on {paired.onlyAAgrees}, both wrong on {paired.bothDisagree}.
        Exact McNemar test on the {paired.onlyAAgrees + paired.onlyBAgrees} rows where they differ: p{" "}
        {paired.pValue < 0.001 ? "< 0.001" : `= ${paired.pValue.toFixed(3)}`} (α {comparison.alpha}). κ intervals:{" "}
        {KAPPA_INTERVAL_METHOD}.
      </p>
    </div>
  );
}

function Confusion({ summary }: { summary: AgreementSummary }) {
  const c = summary.confusion;
  return (
    <span
      className="font-mono text-xs"
      title="judge yes / label yes, judge yes / label no, judge no / label yes, judge no / label no"
    >
      yes·yes {c.yesYes} · yes·no {c.yesNo} · no·yes {c.noYes} · no·no {c.noNo}
    </span>
  );
}
