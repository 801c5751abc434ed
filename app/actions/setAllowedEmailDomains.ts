"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { parseDomainList } from "@/lib/auth/emailDomains";
import { checkRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { writeSetting } from "@/lib/db/accounts/settingsQueries";

export type SetAllowedEmailDomainsState = { ok: boolean; message: string | null };

const inputSchema = z.object({ domains: z.string().max(5_000, "The list is too long: at most 5,000 characters.") });

/** Sets the email domains sign-up is open to (admins only); an empty list opens it to any domain. */
export async function setAllowedEmailDomains(
  _previous: SetAllowedEmailDomainsState,
  formData: FormData,
): Promise<SetAllowedEmailDomainsState> {
  const access = await checkRole("settings.manage");
  if (!access.ok) return { ok: false, message: access.message };
  const input = inputSchema.safeParse({ domains: formData.get("domains") ?? "" });
  if (!input.success) return { ok: false, message: input.error.issues[0]?.message ?? "Write the domains as text." };
  const list = parseDomainList(input.data.domains);
  if (!list.ok) return { ok: false, message: list.message };
  await writeSetting(getDb(), "allowedEmailDomains", list.domains, access.user.local ? null : access.user.id);
  revalidatePath("/admin/users");
  return {
    ok: true,
    message: list.domains.length === 0 ? "Saved: any domain may sign up." : `Saved: ${list.domains.join(", ")}.`,
  };
}
