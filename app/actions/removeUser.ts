"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { removeUserAccount } from "@/lib/auth/removeUserAccount";
import { checkRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";

export type RemoveUserState = { ok: boolean; message: string | null };

/** `confirm` is the email the admin ticked "Yes, remove …" for; an unticked box sends nothing. */
const inputSchema = z.object({
  userId: z.string().min(1).max(100),
  confirm: z.string().max(320).nullable(),
});

/**
 * Removes a user and ends their sessions (admins only), once the admin has
 * confirmed that user's email; not your own account, nor the last active admin.
 */
export async function removeUser(_previous: RemoveUserState, formData: FormData): Promise<RemoveUserState> {
  const access = await checkRole("users.manage");
  if (!access.ok) return { ok: false, message: access.message };
  const input = inputSchema.safeParse({ userId: formData.get("userId"), confirm: formData.get("confirm") });
  if (!input.success) return { ok: false, message: "The removal form was incomplete; nothing was removed." };
  const result = await removeUserAccount(getDb(), {
    userId: input.data.userId,
    confirmedEmail: input.data.confirm ?? "",
    removedBy: access.user.local ? null : access.user.id,
  });
  if (result.ok) revalidatePath("/admin/users");
  return result;
}
