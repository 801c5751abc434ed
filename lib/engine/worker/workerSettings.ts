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

/**
 * How long a worker may go without heartbeating before its in-flight slots
 * (the endpoint's shared limit) go to others: a quarter of the worker timeout,
 * at least 3 s (three heartbeats) and at most the timeout; 5 s by default.
 * Shorter than the timeout because a dead worker's slots throttle every
 * worker, while taking a live but stalled one's costs at most a few calls
 * above the limit (its calls already out; storeSlotLimiter.ts stops it handing
 * the lost slots on). Its claims wait for the full timeout: taking them early
 * would make LLM calls twice.
 */
export function slotTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return slotTimeoutFor(workerTimeoutMs(env));
}

/** The slot timeout that goes with a worker timeout (slotTimeoutMs). */
export function slotTimeoutFor(workerTimeout: number): number {
  return Math.min(workerTimeout, Math.max(3_000, Math.round(workerTimeout / 4)));
}

/** Whether the web server judges too (ASSAY_WEB_WORKER, default on); off leaves judging to `npm run worker` processes. */
export function webServerJudges(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.ASSAY_WEB_WORKER?.trim() !== "0";
}

/**
 * What the web server is among the workers. With ASSAY_WEB_WORKER=0 it still makes the Align page's LLM calls
 * (measuring an aligned judge, drafting guidance), through the endpoint's shared limit and so with a
 * heartbeat: it shows as "web-align", not as a worker that judges runs.
 */
export function webServerWorkerKind(env: NodeJS.ProcessEnv = process.env): "web" | "web-align" {
  return webServerJudges(env) ? "web" : "web-align";
}
