"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { checkRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { clearPairwisePreference, savePairwisePreference } from "@/lib/db/pairwise/pairwisePreferences";
import { readPairResponses } from "@/lib/server/pairResponses";

export type SavePreferenceState = { message: string | null; choice: "a" | "b" | "tie" | null };

const inputSchema = z.object({
  baselineRunId: z.string().min(1).max(200),
  candidateRunId: z.string().min(1).max(200),
  baselineRowId: z.string().min(1).max(200),
  choice: z.enum(["a", "b", "tie", "clear"]),
});

/**
 * A reviewer's A/B verdict on the side-by-side page: A better, B better or tie (or withdrawn), stored for the two
 * responses shown, read from the store here (never from the form), under the reviewer's own name.
 */
export async function savePreference(_state: SavePreferenceState, formData: FormData): Promise<SavePreferenceState> {
  const access = await checkRole("labels.write");
  if (!access.ok) return { message: access.message, choice: null };
  const input = inputSchema.safeParse(
    Object.fromEntries(["baselineRunId", "candidateRunId", "baselineRowId", "choice"].map((k) => [k, formData.get(k)])),
  );
  if (!input.success) return { message: "The verdict form was incomplete: reload the page.", choice: null };
  const db = getDb();
  const pair = await readPairResponses(
    db,
    input.data.baselineRunId,
    input.data.candidateRunId,
    input.data.baselineRowId,
  );
  if (!pair)
    return { message: "One of the two responses is missing: there is nothing to choose between.", choice: null };
  const key = {
    baselineRowId: pair.baselineRowId,
    candidateRowId: pair.candidateRowId,
    baselineResponseHash: pair.baseline.hash,
    candidateResponseHash: pair.candidate.hash,
    labelledBy: access.user.id,
  };
  if (input.data.choice === "clear") await clearPairwisePreference(db, key);
  else
    await savePairwisePreference(db, key, {
      choice: input.data.choice,
      reason: null,
      baselineRunId: input.data.baselineRunId,
      candidateRunId: input.data.candidateRunId,
    });
  revalidatePath("/compare/row");
  return { message: null, choice: input.data.choice === "clear" ? null : input.data.choice };
}
