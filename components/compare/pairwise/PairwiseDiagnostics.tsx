import type { PairwiseSummary, Rate } from "@/lib/stats/pairwiseSummary";

type Diagnostic = { name: string; rate: Rate | null; ideal: string; meaning: string; warn: (rate: Rate) => boolean };

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/**
 * The judge's own behaviour on this comparison, each with its 95% interval and what an unbiased judge would
 * show: how often it kept its verdict when the order was swapped, how often the first-shown and the longer
 * answer won, and how often it called a tie. A diagnostic whose interval excludes the unbiased value is marked.
 */
export function PairwiseDiagnostics({ summary, orders }: { summary: PairwiseSummary; orders: "both" | "one" }) {
  const diagnostics: Diagnostic[] = [
    {
      name: "Position consistency",
      rate: summary.positionConsistency,
      ideal: orders === "both" ? "100%" : "not measured in one-order mode",
      meaning:
        "Pairs given the same verdict in both orders. A judge that ignores position keeps its verdict when A and B swap places.",
      warn: (rate) => rate.high < 0.9,
    },
    {
      name: "First-shown answer wins",
      rate: summary.firstShownWinRate,
      ideal: "50%",
      meaning: "Of the judgments that named a winner, the share won by the answer shown first.",
      warn: (rate) => rate.low > 0.5 || rate.high < 0.5,
    },
    {
      name: "Longer answer wins",
      rate: summary.longerWinRate,
      ideal: "50% if length is not what makes an answer better",
      meaning:
        "Of the judgments that named a winner between answers of different lengths, the share won by the longer.",
      warn: (rate) => rate.low > 0.65,
    },
    {
      name: "Ties",
      rate: summary.tieRate,
      ideal: "depends on the versions",
      meaning:
        orders === "both"
          ? `Pairs whose verdict is a tie, ${summary.positionDependent} of them position-dependent (the orders named different winners).`
          : "Pairs the judge called a tie.",
      warn: () => false,
    },
  ];
  return (
    <table className="w-full text-left text-xs" data-testid="pairwise-diagnostics">
      <thead className="text-slate-500">
        <tr>
          <th className="py-1 pr-3 font-medium">Diagnostic of the judge</th>
          <th className="py-1 pr-3 font-medium">Value</th>
          <th className="py-1 pr-3 font-medium">95% interval</th>
          <th className="py-1 pr-3 font-medium">Unbiased judge</th>
          <th className="py-1 font-medium">What it counts</th>
        </tr>
      </thead>
      <tbody>
        {diagnostics.map((d) => {
          const flagged = d.rate !== null && d.warn(d.rate);
          return (
            <tr key={d.name} className="border-t border-slate-100 align-top" data-flagged={flagged || undefined}>
              <td className="py-1 pr-3 font-medium text-slate-800">{d.name}</td>
              <td className={`py-1 pr-3 tabular-nums ${flagged ? "font-semibold text-amber-800" : ""}`}>
                {d.rate ? `${percent(d.rate.value)} of ${d.rate.of}` : "—"}
                {flagged && (
                  <span className="ml-1" title="outside what an unbiased judge would show">
                    ⚠
                  </span>
                )}
              </td>
              <td className="py-1 pr-3 tabular-nums text-slate-600">
                {d.rate ? `${percent(d.rate.low)} – ${percent(d.rate.high)}` : "—"}
              </td>
              <td className="py-1 pr-3 text-slate-600">{d.ideal}</td>
              <td className="py-1 text-slate-600">{d.meaning}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
