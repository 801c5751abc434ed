import type { AlphaInterval, AlphaResult, AltTestResult, FleissResult } from "@/lib/stats";
import { alphaText, altTestVerdict, fleissText, intervalText } from "./peopleAgreementText";

/** What the table reads of a people's agreement report (lib/labels/peopleAgreementReport.ts, or the API's JSON). */
export type PeopleTableRow = {
  metric: string;
  labellers: readonly unknown[];
  agreement: {
    level: string;
    alpha: AlphaResult;
    unitsInterval: AlphaInterval | null;
    fleiss: FleissResult;
    pairableRows: number;
  };
  gold: { tied: number; disagreed: number };
  judge: { alphaWithJudge: AlphaResult; altTest: AltTestResult } | null;
};

/**
 * The CLI's table of agreement between people, after the judge's: per metric more than one person labelled,
 * their α with its interval (rows resampled), Fleiss' κ, the tied keys, the judge's α as one more labeller
 * and the alternative annotator test's answer.
 */
export function formatPeopleAgreementTable(reports: readonly PeopleTableRow[]): string {
  if (reports.length === 0) return "";
  const header = [
    "metric",
    "labellers",
    "rows (2+)",
    "α [95 % CI]",
    "Fleiss' κ",
    "tied",
    "α with judge",
    "judge as good as one of them?",
  ];
  const lines = reports.map((report) => [
    report.metric,
    String(report.labellers.length),
    String(report.agreement.pairableRows),
    `${alphaText(report.agreement.alpha)} ${report.agreement.level} ${intervalText(report.agreement.unitsInterval)}`,
    fleissText(report.agreement.fleiss),
    String(report.gold.tied),
    report.judge ? alphaText(report.judge.alphaWithJudge) : "–",
    report.judge ? altTestVerdict(report.judge.altTest).text : "–",
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => Math.min(line[i].length, 60))));
  const render = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [
    render(header),
    ...lines.map(render),
    "α: Krippendorff's, interval by resampling rows; the judge's κ above is measured on the gold labels (adjudicated, else the majority, else the median; ties have none); the last column is the alternative annotator test (Calderon, Reichart & Dror 2025, ε 0.15).",
  ].join("\n");
}
