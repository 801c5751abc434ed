import { z } from "zod";
import { summarizeAgreement, type AgreementSummary, type ConfusionCounts } from "@/lib/stats/agreement";
import { pairedAgreementTest, type PairedAgreementTest } from "@/lib/stats/agreementPaired";

/**
 * The proof of an alignment: the original judge and its aligned version on the same held-out rows,
 * against the same labels. Each version's agreement (κ with its interval, raw agreement, the confusion
 * matrix, errors counted beside), and the paired test of which one is right more often (exact McNemar
 * on the rows where exactly one agrees with the label), with its verdict in words.
 */
export type HeldOutRow = {
  label: "yes" | "no";
  /** A version's verdict; null when it errored on the row. */
  original: "yes" | "no" | null;
  aligned: "yes" | "no" | null;
};

export type AlignmentVerdict = "agrees more (real)" | "no real change" | "agrees less (real)";

export type HeldOutComparison = {
  rows: number;
  original: AgreementSummary;
  aligned: AgreementSummary;
  paired: PairedAgreementTest;
  alpha: number;
  verdict: AlignmentVerdict;
  words: string;
};

function summaryOf(rows: readonly HeldOutRow[], version: "original" | "aligned"): AgreementSummary {
  const confusion: ConfusionCounts = { yesYes: 0, yesNo: 0, noYes: 0, noNo: 0 };
  let errors = 0;
  for (const row of rows) {
    const verdict = row[version];
    if (verdict === null) {
      errors += 1;
      continue;
    }
    // Keyed judge→label, as the agreement panel counts: yesNo = the judge said yes, the person no.
    const key = `${verdict}${row.label === "yes" ? "Yes" : "No"}` as keyof ConfusionCounts;
    confusion[key] += 1;
  }
  return summarizeAgreement(confusion, errors);
}

export function compareOnHeldOut(rows: readonly HeldOutRow[], alpha = 0.05): HeldOutComparison {
  const counts = { bothAgree: 0, onlyAAgrees: 0, onlyBAgrees: 0, bothDisagree: 0 };
  for (const row of rows) {
    if (row.original === null || row.aligned === null) continue;
    const a = row.original === row.label;
    const b = row.aligned === row.label;
    if (a && b) counts.bothAgree += 1;
    else if (a) counts.onlyAAgrees += 1;
    else if (b) counts.onlyBAgrees += 1;
    else counts.bothDisagree += 1;
  }
  const paired = pairedAgreementTest(counts);
  const real = paired.pValue < alpha;
  const verdict: AlignmentVerdict =
    real && paired.onlyBAgrees > paired.onlyAAgrees
      ? "agrees more (real)"
      : real && paired.onlyAAgrees > paired.onlyBAgrees
        ? "agrees less (real)"
        : "no real change";
  const percent = (x: number | null) => (x === null ? "—" : `${(x * 100).toFixed(1)}%`);
  const words = `${verdict[0].toUpperCase()}${verdict.slice(1)}: on ${paired.pairs} held-out rows both versions judged, the original agrees with the labels on ${percent(paired.agreementA)} and the aligned version on ${percent(paired.agreementB)}; ${paired.onlyBAgrees} rows only the aligned version gets right, ${paired.onlyAAgrees} only the original (exact McNemar p ${paired.pValue < 0.001 ? "< 0.001" : `= ${paired.pValue.toFixed(3)}`}, α ${alpha}).`;
  return {
    rows: rows.length,
    original: summaryOf(rows, "original"),
    aligned: summaryOf(rows, "aligned"),
    paired,
    alpha,
    verdict,
    words,
  };
}

/** A stored comparison read back (the store keeps it as JSON): checked for its parts, null when absent or not one. */
export function storedComparison(value: unknown): HeldOutComparison | null {
  const parsed = storedComparisonSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

const storedComparisonSchema = z.custom<HeldOutComparison>((value) => {
  const shape = z.object({
    rows: z.number(),
    original: z.object({ labelled: z.number(), errors: z.number(), kappa: z.object({ defined: z.boolean() }) }),
    aligned: z.object({ labelled: z.number(), errors: z.number(), kappa: z.object({ defined: z.boolean() }) }),
    paired: z.object({ onlyAAgrees: z.number(), onlyBAgrees: z.number(), pValue: z.number() }),
    verdict: z.enum(["agrees more (real)", "no real change", "agrees less (real)"]),
    words: z.string(),
  });
  return shape.safeParse(value).success;
});
