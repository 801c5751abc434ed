/**
 * What a run's concurrency setting means at this endpoint: every run's calls also pass through the endpoint's
 * limiter shared by every worker (ASSAY_LLM_MAX_IN_FLIGHT, lib/engine/worker/sharedEndpointLimiter.ts), so a setting above it would run at
 * the endpoint's limit in silence. Said where the setting is made (the CLI's line, the run form's note), named
 * as it is set there (`setting`).
 */
export function concurrencyAboveEndpointLimit(
  concurrency: number,
  maxInFlight: number,
  setting = `--concurrency ${concurrency}`,
): string | null {
  if (concurrency <= maxInFlight) return null;
  return `${setting} is above this endpoint's limit of ${maxInFlight} calls in flight (ASSAY_LLM_MAX_IN_FLIGHT); at most ${maxInFlight} will run at once.`;
}
