"use server";

import { revalidatePath } from "next/cache";
import { z, ZodError } from "zod";
import { appAuthMode, getAccountAuth } from "@/lib/auth/appAuth";
import { createUserAccount, UserExistsError } from "@/lib/auth/createUserAccount";
import { checkRole } from "@/lib/auth/requireRole";
import { roleSchema } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";

export type CreateUserState = { ok: boolean; message: string | null };

const inputSchema = z.object({
  email: z.string().trim().min(1, "Enter the email address.").max(320),
  name: z.string().trim().max(200, "The name can have at most 200 characters."),
  role: roleSchema,
  password: z.string().max(1_000),
});

/**
 * Adds an email/password account with a role (admins only), by the rules of
 * `npm run user:create`: the one password policy, an email that has no
 * account yet, the email counted as verified; the name defaults to the part
 * before the @, as there.
 */
export async function createUser(_previous: CreateUserState, formData: FormData): Promise<CreateUserState> {
  const access = await checkRole("users.manage");
  if (!access.ok) return { ok: false, message: access.message };
  const input = inputSchema.safeParse({
    email: formData.get("email"),
    name: formData.get("name") ?? "",
    role: formData.get("role"),
    password: formData.get("password"),
  });
  if (!input.success)
    return { ok: false, message: input.error.issues[0]?.message ?? "Fill in the email, a role and a password." };
  const { email, name, role, password } = input.data;
  try {
    const user = await createUserAccount(getAccountAuth(), getDb(), {
      email,
      name: name || email.split("@")[0] || email,
      password,
      role,
    });
    revalidatePath("/admin/users");
    // While sign-in is off nobody signs in; the account waits for ASSAY_AUTH_SECRET.
    const when = appAuthMode().kind === "on" ? "they can sign in now" : "they can sign in once sign-in is on";
    return { ok: true, message: `Created ${user.role} ${user.email}. Give them their password; ${when}.` };
  } catch (error) {
    if (error instanceof UserExistsError) return { ok: false, message: error.message };
    if (error instanceof ZodError)
      return { ok: false, message: error.issues[0]?.message ?? "Check the email, name and password." };
    throw error;
  }
}
