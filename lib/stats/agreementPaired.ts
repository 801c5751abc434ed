import { exactMcNemar } from "./mcnemar";

/**
 * Two runs (two prompt versions, two judge models) on the same labelled rows:
 * which agrees with people more often? Each row where both runs gave a verdict
 * is agree/disagree in A and in B; only rows where they differ carry
 * information, so the test is the exact McNemar test on those (lib/stats/mcnemar.ts).
 * Rows where either run errored or did not judge are left out of the pairing.
 */
export type PairedAgreementCounts = {
  bothAgree: number;
  /** A agrees with the label, B does not. */
  onlyAAgrees: number;
  /** B agrees with the label, A does not. */
  onlyBAgrees: number;
  bothDisagree: number;
};

export type PairedAgreementTest = PairedAgreementCounts & {
  pairs: number;
  /** Raw agreement of each run on the paired rows; null when there are none. */
  agreementA: number | null;
  agreementB: number | null;
  pValue: number;
};

export function pairedAgreementTest(counts: PairedAgreementCounts): PairedAgreementTest {
  const pairs = counts.bothAgree + counts.onlyAAgrees + counts.onlyBAgrees + counts.bothDisagree;
  const { pValue } = exactMcNemar(counts.onlyAAgrees, counts.onlyBAgrees);
  return {
    ...counts,
    pairs,
    agreementA: pairs === 0 ? null : (counts.bothAgree + counts.onlyAAgrees) / pairs,
    agreementB: pairs === 0 ? null : (counts.bothAgree + counts.onlyBAgrees) / pairs,
    pValue,
  };
}
