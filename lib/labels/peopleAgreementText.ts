import type { AlphaInterval, AlphaResult, AltTestResult, FleissResult } from "@/lib/stats";

/**
 * People's agreement in words, shared by the run page's panel and the CLI's table: α with its level and
 * interval, Fleiss' κ, and the alternative annotator test's answer to "is the judge as good as one of
 * our labellers?".
 */
export function alphaText(alpha: AlphaResult): string {
  return alpha.defined ? alpha.alpha.toFixed(3) : `undefined: ${alpha.reason}`;
}

export function intervalText(interval: AlphaInterval | null): string {
  return interval ? `[${interval.low.toFixed(2)}, ${interval.high.toFixed(2)}]` : "–";
}

export function fleissText(fleiss: FleissResult): string {
  return fleiss.defined ? `${fleiss.kappa.toFixed(3)} (${fleiss.raters} each)` : `– (${fleiss.reason})`;
}

/** The method, named, as every place that shows the test says it. */
export function altTestMethod(test: Pick<AltTestResult, "epsilon" | "q" | "scoring">): string {
  const score = test.scoring === "accuracy" ? "agreement with the others" : "root mean square distance to the others";
  return `alternative annotator test (Calderon, Reichart & Dror 2025): each labeller left out in turn, judge and labeller scored by ${score}, one-sided t-test with allowance ε = ${test.epsilon}, Benjamini–Yekutieli at q = ${test.q}`;
}

/** The verdict in one line: "yes", "not shown", or why it cannot tell. */
export function altTestVerdict(test: AltTestResult): { tone: "good" | "bad" | "unknown"; text: string } {
  if (test.passed === null || test.winningRate === null)
    return { tone: "unknown", text: `Cannot tell yet: ${test.note ?? "not enough labelled rows"}.` };
  const beaten = test.labellers.filter((labeller) => labeller.beaten).length;
  const of = `${beaten} of ${test.tested} labeller${test.tested === 1 ? "" : "s"}`;
  const advantage =
    test.advantageProbability === null ? "" : `; advantage probability ${test.advantageProbability.toFixed(2)}`;
  return test.passed
    ? {
        tone: "good",
        text: `Yes: the judge represents the others at least as well as ${of} (winning rate ${test.winningRate.toFixed(2)}${advantage}).`,
      }
    : {
        tone: "bad",
        text: `Not shown: the judge beat ${of} (winning rate ${test.winningRate.toFixed(2)} < 0.50${advantage}).`,
      };
}
