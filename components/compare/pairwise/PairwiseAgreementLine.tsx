import type { PairwiseAgreement } from "@/lib/compare/pairwiseAgreement";

/**
 * People's A/B verdicts held to the judge's: how many were given on these runs' pairs, how often the judge agreed
 * and Cohen's κ over the three answers with its interval, or why there is none yet.
 */
export function PairwiseAgreementLine({ agreement }: { agreement: PairwiseAgreement }) {
  const { kappa } = agreement;
  return (
    <p className="text-xs text-slate-600" data-testid="pairwise-agreement">
      People&apos;s A/B verdicts on these pairs: {agreement.verdicts}
      {agreement.verdicts === 0
        ? " (give yours on any row's side-by-side page: a, t or b)."
        : kappa.defined
          ? `; on the ${agreement.compared} the judge decided, it agreed on ${(kappa.agreement * 100).toFixed(1)}%, Cohen's κ ${kappa.kappa.toFixed(2)} (95% CI ${kappa.low.toFixed(2)} to ${kappa.high.toFixed(2)}).`
          : `; κ not computed: ${kappa.reason}.`}
    </p>
  );
}
