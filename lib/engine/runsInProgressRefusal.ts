/**
 * Thrown where a run or an alignment's measurement would start while its user already has as many in progress
 * as ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER allows (lib/db/runs/runsInProgress.ts counts and refuses in one
 * transaction); nothing was stored. The server words it with the limit (runsInProgressProblem).
 */
export class RunsInProgressRefusal extends Error {
  name = "RunsInProgressRefusal";
  constructor(readonly inProgress: number) {
    super(`${inProgress} runs in progress`);
  }
}
