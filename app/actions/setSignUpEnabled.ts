"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { checkRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { writeSetting } from "@/lib/db/accounts/settingsQueries";

export type SetSignUpEnabledState = { ok: boolean; message: string | null };

const inputSchema = z.object({ signUp: z.enum(["on", "off"]) });

/** Opens or closes sign-up (admins only). While closed, only an admin or the CLI creates accounts. */
export async function setSignUpEnabled(
  _previous: SetSignUpEnabledState,
  formData: FormData,
): Promise<SetSignUpEnabledState> {
  const access = await checkRole("settings.manage");
  if (!access.ok) return { ok: false, message: access.message };
  const input = inputSchema.safeParse({ signUp: formData.get("signUp") });
  if (!input.success) return { ok: false, message: "Choose on or off." };
  const enabled = input.data.signUp === "on";
  await writeSetting(getDb(), "signUpEnabled", enabled, access.user.local ? null : access.user.id);
  revalidatePath("/admin/users");
  revalidatePath("/signin");
  return { ok: true, message: "Saved." };
}
