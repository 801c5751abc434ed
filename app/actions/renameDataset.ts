"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { checkRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { renameDataset as renameDatasetInDb } from "@/lib/db/datasets/datasetWrites";

export type RenameDatasetState = { message: string | null; ok: boolean };

const inputSchema = z.object({
  datasetId: z.string().min(1).max(100),
  name: z.string().trim().min(1, "The name cannot be empty.").max(200, "Keep the name under 200 characters."),
});

/** Renames a dataset (e.g. "support set v2, cleaned"). */
export async function renameDataset(_previous: RenameDatasetState, formData: FormData): Promise<RenameDatasetState> {
  const access = await checkRole("dataset.rename");
  if (!access.ok) return { ok: false, message: access.message };
  const input = inputSchema.safeParse({ datasetId: formData.get("datasetId"), name: formData.get("name") });
  if (!input.success) return { ok: false, message: input.error.issues[0]?.message ?? "Check the form." };
  const renamed = await renameDatasetInDb(getDb(), input.data.datasetId, input.data.name);
  if (!renamed) return { ok: false, message: "This dataset no longer exists." };
  revalidatePath(`/datasets/${input.data.datasetId}`);
  revalidatePath("/datasets");
  return { ok: true, message: "Saved." };
}
