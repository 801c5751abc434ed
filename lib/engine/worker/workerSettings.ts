/**
 * How long a worker may go without heartbeating before others take back
 * what it held (ASSAY_WORKER_TIMEOUT_MS, default 20 s). With the sweep every
 * 5 s, a killed worker's claims are back in the pool within 25 s. Tests
 * shorten it; a team whose workers stall for long garbage collections or
 * network blips may lengthen it.
 */
export function workerTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.ASSAY_WORKER_TIMEOUT_MS);
  return Number.isFinite(value) && value >= 1_000 ? value : 20_000;
}

/** Whether the web server judges too (ASSAY_WEB_WORKER, default on); off leaves judging to `npm run worker` processes. */
export function webServerJudges(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.ASSAY_WEB_WORKER?.trim() !== "0";
}
