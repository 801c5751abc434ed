import { listAdoptedAlignments } from "@/lib/db/alignments/judgeAlignments";
import type { Db } from "@/lib/db/client";
import type { RunConfigInput } from "@/lib/engine/runConfig";

/**
 * A run request's adopted aligned judges (by alignment id, as the run form and the API name them), as the
 * custom and G-Eval judges the run config takes: each stored whole with its alignment, so nothing of it comes
 * from the request but its id. An id that is not an adopted alignment of the dataset is an error naming it.
 */
export async function adoptedJudgesFor(
  db: Db,
  datasetId: string,
  ids: readonly string[],
): Promise<
  | {
      ok: true;
      customJudges: NonNullable<RunConfigInput["customJudges"]>;
      gEvalJudges: NonNullable<RunConfigInput["gEvalJudges"]>;
    }
  | { ok: false; errors: string[] }
> {
  if (ids.length === 0) return { ok: true, customJudges: [], gEvalJudges: [] };
  const adopted = new Map((await listAdoptedAlignments(db, datasetId)).map((a) => [a.id, a]));
  const missing = ids.filter((id) => !adopted.has(id));
  if (missing.length > 0)
    return {
      ok: false,
      errors: missing.map(
        (id) => `aligned judge ${id}: not an adopted aligned judge of this dataset (adopt it on its page)`,
      ),
    };
  const chosen = [...new Set(ids)].flatMap((id) => {
    const alignment = adopted.get(id);
    return alignment ? [alignment.definition] : [];
  });
  return {
    ok: true,
    customJudges: chosen.flatMap((d) => (d.type === "custom" ? [d.judge] : [])),
    gEvalJudges: chosen.flatMap((d) => (d.type === "g_eval" ? [d.judge] : [])),
  };
}
