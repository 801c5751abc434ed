/**
 * Prints the offline heuristic judge's agreement with the labelled HaluEval QA
 * set (tests/fixtures/heldout/halueval-qa/README.md): per judge, accuracy,
 * Cohen's kappa, n and the confusion counts.
 * Usage: npx tsx scripts/heuristic-agreement.ts [--split heldout|dev] [--by-variant] [--misses N]
 *        npx tsx scripts/heuristic-agreement.ts --set truthfulqa|fever-symmetric
 * The held-out split is the default; rules are changed looking at the dev split only. --set measures one
 * of the public sets in tests/fixtures/measure, which no rule was written on (TruthfulQA: correctness;
 * Symmetric FEVER: groundedness).
 */
import { loadMeasureSet, MEASURE_SETS, type MeasureSet } from "../tests/fixtures/measure/measureSets";
import {
  HELDOUT_JUDGES,
  type HeldoutJudge,
  formatAgreement,
  loadHeldoutSplit,
  measureAgreement,
  type Split,
} from "../tests/fixtures/heldout/heldoutAgreement";

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const split = (option("--split") ?? "heldout") as Split;
if (split !== "heldout" && split !== "dev") {
  console.error("--split must be heldout or dev");
  process.exit(2);
}
const showMisses = Number(option("--misses") ?? 0);

const set = option("--set");
if (set !== undefined && !(MEASURE_SETS as readonly string[]).includes(set)) {
  console.error(`--set must be one of ${MEASURE_SETS.join(", ")}`);
  process.exit(2);
}
const items = set ? loadMeasureSet(set as MeasureSet) : loadHeldoutSplit(split);
console.log(
  set
    ? `offline heuristic judge vs ${set} labels (${items.length} rows)`
    : `offline heuristic judge vs HaluEval QA labels, ${split} split (${items.length} rows)`,
);
for (const judge of Object.keys(HELDOUT_JUDGES) as HeldoutJudge[]) {
  const agreement = measureAgreement(items, judge);
  if (agreement.n === 0) continue;
  console.log(formatAgreement(agreement));
  if (args.includes("--by-variant")) {
    for (const variant of [...new Set(items.map((i) => i.variant))]) {
      const part = measureAgreement(
        items.filter((i) => i.variant === variant),
        judge,
      );
      if (part.n > 0) console.log(`    ${variant.padEnd(14)} ${part.agree}/${part.n}`);
    }
  }
  for (const miss of agreement.misses.slice(0, showMisses))
    console.log(`    ${miss.id} label ${miss.label}, judged ${miss.verdict}: ${miss.rationale.slice(0, 300)}`);
}
