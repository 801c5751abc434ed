"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { checkRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { deleteDatasetWithRuns } from "@/lib/db/datasets/datasetWrites";

export type DeleteDatasetState = { message: string | null };

const inputSchema = z.object({
  datasetId: z.string().min(1).max(100),
  confirm: z.literal("delete"),
  runCount: z.coerce.number().int().min(0),
});

/**
 * Deletes a dataset with its rows and runs. The form carries confirm=delete
 * and the number of runs the confirmation named, so a run started since then
 * is never deleted unseen.
 */
export async function deleteDataset(_previous: DeleteDatasetState, formData: FormData): Promise<DeleteDatasetState> {
  const access = await checkRole("dataset.delete");
  if (!access.ok) return { message: access.message };
  const input = inputSchema.safeParse({
    datasetId: formData.get("datasetId"),
    confirm: formData.get("confirm"),
    runCount: formData.get("runCount"),
  });
  if (!input.success) return { message: "The deletion was not confirmed; nothing was deleted." };
  const outcome = await deleteDatasetWithRuns(getDb(), input.data.datasetId, input.data.runCount);
  if (!outcome.deleted) {
    revalidatePath(`/datasets/${input.data.datasetId}`);
    if (outcome.reason === "notFound") return { message: "This dataset no longer exists." };
    if (outcome.reason === "runInProgress")
      return {
        message: `Not deleted: ${quoteNames(outcome.runNames)} ${outcome.runNames.length === 1 ? "is" : "are"} still in progress. Cancel ${outcome.runNames.length === 1 ? "it" : "them"} on the run page (or wait until ${outcome.runNames.length === 1 ? "it finishes" : "they finish"}), then delete.`,
      };
    return {
      message: `Not deleted: the dataset now has ${runsWord(outcome.runCount)} (a run was started or deleted since this page loaded). Check, then confirm again.`,
    };
  }
  revalidatePath("/datasets");
  redirect("/datasets");
}

function quoteNames(names: string[]): string {
  const shown = names.slice(0, 3).map((name) => `“${name}”`);
  if (names.length > 3) shown.push(`${names.length - 3} more`);
  return `the run${names.length === 1 ? "" : "s"} ${shown.join(", ")}`;
}

function runsWord(count: number): string {
  return `${count.toLocaleString("en-US")} run${count === 1 ? "" : "s"}`;
}
