"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getAccountAuth } from "@/lib/auth/appAuth";
import { checkRole } from "@/lib/auth/requireRole";
import { resetAccountPassword } from "@/lib/auth/resetAccountPassword";
import { getDb } from "@/lib/db/client";

export type ResetUserPasswordState = { ok: boolean; message: string | null };

const inputSchema = z.object({ userId: z.string().min(1).max(100), password: z.string().max(1_000) });

/** Sets a user's password under the password policy and ends their sessions (admins only). */
export async function resetUserPassword(
  _previous: ResetUserPasswordState,
  formData: FormData,
): Promise<ResetUserPasswordState> {
  const access = await checkRole("users.manage");
  if (!access.ok) return { ok: false, message: access.message };
  const input = inputSchema.safeParse({ userId: formData.get("userId"), password: formData.get("password") });
  if (!input.success) return { ok: false, message: "Enter the new password." };
  const result = await resetAccountPassword(getAccountAuth(), getDb(), input.data.userId, input.data.password);
  if (result.ok) revalidatePath("/admin/users");
  return result;
}
