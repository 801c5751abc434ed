"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { changeUserRole } from "@/lib/auth/changeUserRole";
import { checkRole } from "@/lib/auth/requireRole";
import { roleSchema } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";

export type SetUserRoleState = { ok: boolean; message: string | null };

const inputSchema = z.object({ userId: z.string().min(1).max(100), role: roleSchema });

/** Gives a user another role (admins only); the last admin cannot be demoted. */
export async function setUserRole(_previous: SetUserRoleState, formData: FormData): Promise<SetUserRoleState> {
  const access = await checkRole("users.manage");
  if (!access.ok) return { ok: false, message: access.message };
  const input = inputSchema.safeParse({ userId: formData.get("userId"), role: formData.get("role") });
  if (!input.success) return { ok: false, message: "Choose viewer, runner or admin." };
  const result = await changeUserRole(getDb(), input.data.userId, input.data.role);
  if (!result.ok) return result;
  revalidatePath("/admin/users");
  return { ok: true, message: "Saved." };
}
