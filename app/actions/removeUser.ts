"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { removeUserAccount } from "@/lib/auth/removeUserAccount";
import { checkRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";

export type RemoveUserState = { ok: boolean; message: string | null };

const inputSchema = z.object({ userId: z.string().min(1).max(100), confirm: z.literal("remove") });

/** Removes a user and ends their sessions (admins only); the last active admin cannot be removed. */
export async function removeUser(_previous: RemoveUserState, formData: FormData): Promise<RemoveUserState> {
  const access = await checkRole("users.manage");
  if (!access.ok) return { ok: false, message: access.message };
  const input = inputSchema.safeParse({ userId: formData.get("userId"), confirm: formData.get("confirm") });
  if (!input.success) return { ok: false, message: "The removal was not confirmed; nothing was removed." };
  const result = await removeUserAccount(getDb(), input.data.userId);
  if (result.ok) revalidatePath("/admin/users");
  return result;
}
