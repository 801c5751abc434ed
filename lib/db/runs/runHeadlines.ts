/** A run's pass rate on one yes/no judge, as the run lists show it. */
export type RunHeadline = { metric: string; rate: number; judged: number };

/**
 * Worst first, then by name. Lists show the first few of a run's headlines, which must be the same on every
 * load (the tallies come back from the store in no order) and must never hide the metric that fails most.
 */
export function orderHeadlines(headlines: readonly RunHeadline[]): RunHeadline[] {
  return [...headlines].sort((a, b) => a.rate - b.rate || (a.metric < b.metric ? -1 : a.metric > b.metric ? 1 : 0));
}
