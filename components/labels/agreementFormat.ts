import { formatPercent } from "@/lib/charts/format";
import type { JudgeAgreement } from "@/lib/db/labels/agreementQueries";

/** κ in words for the panels: "0.31 [0.05, 0.57]" or "undefined: <reason>". */
export function kappaText(row: Pick<JudgeAgreement, "kappa">): string {
  if (!row.kappa.defined) return `undefined: ${row.kappa.reason}`;
  if (row.kappa.intervalNote) return `${row.kappa.kappa.toFixed(2)} (${row.kappa.intervalNote})`;
  return `${row.kappa.kappa.toFixed(2)} [${row.kappa.low.toFixed(2)}, ${row.kappa.high.toFixed(2)}]`;
}

export function percentText(value: number | null): string {
  return value === null ? "–" : formatPercent(value);
}

/** Spearman's ρ and the mean absolute difference of a score judge, or null for a yes/no judge. */
export function scoreText(row: Pick<JudgeAgreement, "scores">): { spearman: string; mad: string } | null {
  if (!row.scores) return null;
  const { spearman, meanAbsoluteDifference } = row.scores;
  return {
    spearman: spearman.defined ? spearman.rho.toFixed(2) : `undefined: ${spearman.reason}`,
    mad: meanAbsoluteDifference === null ? "–" : meanAbsoluteDifference.toFixed(3),
  };
}
