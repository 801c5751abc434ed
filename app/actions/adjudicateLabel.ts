"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { checkRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { adjudicateLabel as writeAdjudication, clearAdjudication } from "@/lib/db/labels/adjudicationWrites";
import { LabelTargetError } from "@/lib/db/labels/labelWrites";
import { getRun } from "@/lib/db/runs/runQueries";
import { retryWhileBusy } from "@/lib/db/store/storeRetry";
import { MAX_LABEL_REASON_CHARS } from "@/lib/contract/labelEntry";

export type AdjudicateState = { ok: boolean; message: string | null };

const inputSchema = z.object({
  runId: z.string().min(1).max(100),
  rowId: z.string().min(1).max(100),
  metric: z.string().min(1).max(300),
  chunkPosition: z.coerce.number().int().min(-1).max(10_000),
  /** "yes", "no", a score in [0, 1], or "clear" to remove the deciding label. */
  value: z.union([
    z.enum(["yes", "no", "clear"]),
    z.coerce.number({ message: "Enter a score between 0 and 1." }).min(0).max(1),
  ]),
  reason: z.string().max(MAX_LABEL_REASON_CHARS, "A reason is at most 2,000 characters.").default(""),
});

/** Sets or removes the deciding label of a key where people's labels differ (admins only). */
export async function adjudicateLabel(_previous: AdjudicateState, formData: FormData): Promise<AdjudicateState> {
  const access = await checkRole("labels.adjudicate");
  if (!access.ok) return { ok: false, message: access.message };
  const field = (name: string) => {
    const value = formData.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const input = inputSchema.safeParse({
    runId: field("runId"),
    rowId: field("rowId"),
    metric: field("metric"),
    chunkPosition: field("chunkPosition"),
    value: field("value")?.trim(),
    reason: field("reason"),
  });
  if (!input.success) return { ok: false, message: input.error.issues[0]?.message ?? "Check the decision." };
  const { runId, rowId, metric, chunkPosition, value, reason } = input.data;
  const db = getDb();
  const run = await getRun(db, runId);
  if (!run) return { ok: false, message: "That run no longer exists." };
  const key = { datasetId: run.datasetId, rowId, metric, chunkPosition };
  try {
    if (value === "clear") {
      const removed = await retryWhileBusy(() => clearAdjudication(db, key, { by: access.user.id }));
      if (!removed) return { ok: false, message: "There was no deciding label to remove." };
    } else {
      if (!reason.trim()) return { ok: false, message: "Say why: a deciding label needs a reason." };
      const decided =
        typeof value === "number"
          ? { kind: "score" as const, score: value }
          : { kind: "rating" as const, rating: value };
      await retryWhileBusy(() => writeAdjudication(db, key, { value: decided, reason, decidedBy: access.user.id }));
    }
  } catch (error) {
    if (error instanceof LabelTargetError) return { ok: false, message: error.message };
    throw error;
  }
  revalidatePath(`/runs/${runId}`, "layout");
  return { ok: true, message: value === "clear" ? "Removed: the people's labels decide again." : "Decided." };
}
