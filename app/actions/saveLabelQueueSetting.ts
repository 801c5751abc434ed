"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { checkRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { MAX_LABELS_PER_ROW, saveLabelQueueSetting as writeSetting } from "@/lib/db/labels/labelQueueSettings";
import { getRun } from "@/lib/db/runs/runQueries";
import { labellableRunMetrics } from "@/lib/labels/labelKinds";

export type QueueSettingState = { ok: boolean; message: string | null };

const inputSchema = z.object({
  runId: z.string().min(1).max(100),
  metric: z.string().min(1).max(300),
  labelsPerRow: z.coerce
    .number()
    .int()
    .min(1, "At least one label per row.")
    .max(MAX_LABELS_PER_ROW, `At most ${MAX_LABELS_PER_ROW} labels per row.`),
  hideJudge: z.enum(["on"]).optional(),
});

/** How many people label each row of a metric in the queue, and whether they see the judge's verdict first. */
export async function saveLabelQueueSetting(
  _previous: QueueSettingState,
  formData: FormData,
): Promise<QueueSettingState> {
  const access = await checkRole("labels.write");
  if (!access.ok) return { ok: false, message: access.message };
  const field = (name: string) => {
    const value = formData.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const input = inputSchema.safeParse({
    runId: field("runId"),
    metric: field("metric"),
    labelsPerRow: field("labelsPerRow"),
    hideJudge: field("hideJudge"),
  });
  if (!input.success) return { ok: false, message: input.error.issues[0]?.message ?? "Check the settings." };
  const db = getDb();
  const run = await getRun(db, input.data.runId);
  if (!run) return { ok: false, message: "That run no longer exists." };
  if (!labellableRunMetrics(run).some((entry) => entry.metric === input.data.metric))
    return { ok: false, message: "This run's judges take no label of that metric." };
  await writeSetting(
    db,
    { datasetId: run.datasetId, metric: input.data.metric },
    { labelsPerRow: input.data.labelsPerRow, hideJudge: input.data.hideJudge === "on" },
  );
  revalidatePath(`/runs/${run.id}/label`);
  return { ok: true, message: "Saved." };
}
