"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { checkRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { renameRun } from "@/lib/db/runs/runLifecycle";

export type UpdateRunState = { message: string | null; ok: boolean };

const inputSchema = z.object({
  runId: z.string().min(1).max(100),
  name: z.string().trim().min(1, "The name cannot be empty.").max(200, "Keep the name under 200 characters."),
  tags: z
    .string()
    .max(1000)
    .transform((text) => [
      ...new Set(
        text
          .split(",")
          .map((tag) => tag.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(z.string().max(60, "A tag is at most 60 characters.")).max(20, "At most 20 tags.")),
});

/** Renames and re-tags a run (e.g. "gpt-4.1 + reranker v2"). */
export async function updateRun(_previous: UpdateRunState, formData: FormData): Promise<UpdateRunState> {
  const access = await checkRole("run.update");
  if (!access.ok) return { ok: false, message: access.message };
  const input = inputSchema.safeParse({
    runId: formData.get("runId"),
    name: formData.get("name"),
    tags: formData.get("tags") ?? "",
  });
  if (!input.success) return { ok: false, message: input.error.issues[0]?.message ?? "Check the form." };
  await renameRun(getDb(), input.data.runId, input.data.name, input.data.tags);
  revalidatePath(`/runs/${input.data.runId}`);
  revalidatePath("/runs");
  return { ok: true, message: "Saved." };
}
