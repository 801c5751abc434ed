import { createHash } from "node:crypto";

/**
 * The labelled rows an aligned judge shows in its prompt as worked examples: training rows only,
 * disagreements first (where the judge said otherwise than the person: what it has to learn), both
 * answers represented (alternating while both last, so the examples do not teach "always yes"), in a
 * seeded order within each group, until the token budget or the count is reached.
 */
export type ExampleCandidate = {
  key: string;
  label: "yes" | "no";
  /** The judge's verdict on the row before alignment; null when it errored or did not judge it. */
  verdict: "yes" | "no" | null;
  /** What the judge reads for this row, as the example shows it (request, response, chunk…). */
  text: string;
  /** The labeller's reason, when they wrote one. */
  reason: string | null;
};

export type ExampleBudget = { maxTokens: number; maxExamples: number; seed: string };

export const DEFAULT_EXAMPLE_BUDGET: Omit<ExampleBudget, "seed"> = { maxTokens: 3000, maxExamples: 8 };

/** The judge prompts' own estimate: about four characters a token. */
const tokensOf = (example: ExampleCandidate) => Math.ceil((example.text.length + (example.reason?.length ?? 0)) / 4);

export function selectExamples(candidates: readonly ExampleCandidate[], budget: ExampleBudget): ExampleCandidate[] {
  const order = (items: ExampleCandidate[]) =>
    items
      .map((item) => ({ item, rank: createHash("sha256").update(`${budget.seed}\u0000${item.key}`).digest("hex") }))
      .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0))
      .map(({ item }) => item);
  const queue = (label: "yes" | "no") => {
    const ofLabel = candidates.filter((c) => c.label === label);
    return [
      ...order(ofLabel.filter((c) => c.verdict !== c.label)),
      ...order(ofLabel.filter((c) => c.verdict === c.label)),
    ];
  };
  const queues = { yes: queue("yes"), no: queue("no") };
  // Start with the label the judge gets wrong more often: its first example is the most telling.
  const wrong = (label: "yes" | "no") => queues[label].filter((c) => c.verdict !== c.label).length;
  let next: "yes" | "no" = wrong("no") > wrong("yes") ? "no" : "yes";
  const chosen: ExampleCandidate[] = [];
  let tokens = 0;
  while (chosen.length < budget.maxExamples && (queues.yes.length > 0 || queues.no.length > 0)) {
    const label = queues[next].length > 0 ? next : next === "yes" ? "no" : "yes";
    const candidate = queues[label].shift();
    next = label === "yes" ? "no" : "yes";
    if (!candidate) break;
    const cost = tokensOf(candidate);
    // An example too long for what is left is passed over, so a shorter one may still fit.
    if (tokens + cost > budget.maxTokens) continue;
    chosen.push(candidate);
    tokens += cost;
  }
  return chosen;
}
