"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { checkRole } from "@/lib/auth/requireRole";
import { clearAccountSignInPause } from "@/lib/auth/signInThrottle";
import { getDb } from "@/lib/db/client";

export type ClearSignInPauseState = { ok: boolean; message: string | null };

const inputSchema = z.object({ userId: z.string().min(1).max(100) });

/**
 * Opens a user's paused password sign-in before its 15 minutes are over (admins only): the pause counts
 * failures per email, so whoever knows the email can cause it, and the owner may not wait.
 */
export async function clearSignInPause(
  _previous: ClearSignInPauseState,
  formData: FormData,
): Promise<ClearSignInPauseState> {
  const access = await checkRole("users.manage");
  if (!access.ok) return { ok: false, message: access.message };
  const input = inputSchema.safeParse({ userId: formData.get("userId") });
  if (!input.success) return { ok: false, message: "The form names no user; reload the page." };
  const result = await clearAccountSignInPause(getDb(), input.data.userId);
  if (result.ok) revalidatePath("/admin/users");
  return result;
}
