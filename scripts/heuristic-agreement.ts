/**
 * Prints the offline heuristic judge's agreement with the labelled HaluEval QA
 * set (tests/fixtures/heldout/halueval-qa/README.md): per judge, accuracy,
 * Cohen's kappa, n and the confusion counts.
 * Usage: npx tsx scripts/heuristic-agreement.ts [--split heldout|dev] [--by-variant] [--misses N]
 * The held-out split is the default; rules are changed looking at the dev split only.
 */
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

const items = loadHeldoutSplit(split);
console.log(`offline heuristic judge vs HaluEval QA labels, ${split} split (${items.length} rows)`);
for (const judge of Object.keys(HELDOUT_JUDGES) as HeldoutJudge[]) {
  const agreement = measureAgreement(items, judge);
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
