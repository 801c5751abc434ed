"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { checkRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { retryWhileBusy } from "@/lib/db/store/storeRetry";
import { saveRowLabel } from "@/lib/labels/saveLabel";
import { MAX_LABEL_REASON_CHARS } from "@/lib/contract/labelEntry";

export type SaveLabelState = { ok: boolean; message: string | null };

const inputSchema = z.object({
  runId: z.string().min(1).max(100),
  datasetId: z.string().min(1).max(100),
  rowId: z.string().min(1).max(100),
  metric: z.string().min(1).max(300),
  /** A chunk's 0-based position for a per-chunk metric; absent for a whole-row label. */
  chunkPosition: z.coerce.number().int().min(0).max(10_000).optional(),
  /** "yes", "no", a score in [0, 1], or "clear" to remove the label. */
  value: z.union([
    z.enum(["yes", "no", "clear"]),
    z.coerce
      .number({ message: "Enter a score between 0 and 1." })
      .min(0, "A score is at least 0.")
      .max(1, "A score is at most 1."),
  ]),
  /** Why, in the labeller's words: sent by the reason field only (absent keeps the current reason). */
  reason: z.string().max(MAX_LABEL_REASON_CHARS, "A reason is at most 2,000 characters.").optional(),
});

/** Gives, changes or clears one human label on a row (the drill-down's label controls); the history keeps every change. */
export async function saveLabel(_previous: SaveLabelState, formData: FormData): Promise<SaveLabelState> {
  const access = await checkRole("labels.write");
  if (!access.ok) return { ok: false, message: access.message };
  const text = (name: string) => {
    const value = formData.get(name);
    return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
  };
  const input = inputSchema.safeParse({
    runId: text("runId"),
    datasetId: text("datasetId"),
    rowId: text("rowId"),
    metric: text("metric"),
    chunkPosition: text("chunkPosition"),
    value: text("value"),
    // Not trimmed to absent: an emptied reason field clears the reason.
    reason: typeof formData.get("reason") === "string" ? String(formData.get("reason")) : undefined,
  });
  if (!input.success) return { ok: false, message: input.error.issues[0]?.message ?? "Check the label." };
  const { runId, value, reason, ...target } = input.data;
  // A label import's final transaction holds the write lock for a moment: wait for it rather than fail.
  const saved = await retryWhileBusy(() =>
    saveRowLabel(getDb(), {
      ...target,
      // The label judged the response this run showed: its generated one when it generates.
      runId,
      value: value === "clear" ? null : value,
      labelledBy: access.user.id,
      ...(reason !== undefined ? { reason } : {}),
    }),
  );
  if (!saved.ok) return { ok: false, message: saved.error };
  revalidatePath(`/runs/${runId}`, "layout");
  return { ok: true, message: saved.changed ? "Saved." : "Unchanged." };
}
