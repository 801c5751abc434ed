import type { StoredAlignment } from "@/lib/db/alignments/judgeAlignments";
import type { Db } from "@/lib/db/client";
import { measureAlignment, type MeasureDeps } from "./measureAlignment";
import type { AlignableRun } from "./originalJudge";
import { startAlignment, type AlignmentRequest } from "./startAlignment";

export { AlignmentRefused } from "./originalJudge";

/**
 * One alignment of a run's judge, start to proof, in one call: what the CLI and tests do. The web app
 * starts it (startAlignment) in the request and measures it (measureAlignment) in the background, so its
 * page can show the progress.
 */
export async function alignRunJudge(
  db: Db,
  run: AlignableRun,
  deps: MeasureDeps,
  request: AlignmentRequest,
): Promise<StoredAlignment> {
  const started = await startAlignment(db, run, request);
  return measureAlignment(db, started, run, deps);
}
