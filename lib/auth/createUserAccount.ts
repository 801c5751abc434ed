import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { findUserByEmail } from "@/lib/db/accounts/userQueries";
import type { Auth } from "./createAuth";
import { passwordSchema } from "./passwordPolicy";
import type { Role } from "./roles";

export const newUserSchema = z.object({
  email: z.email("That is not an email address.").transform((email) => email.toLowerCase()),
  name: z.string().trim().min(1).max(200),
  password: passwordSchema,
});

export class UserExistsError extends Error {}

/**
 * Creates an email/password user with a role, as an admin would: through the
 * admin plugin's create-user, which hashes the password and is the one way in
 * that the sign-up setting does not close. Refuses an email that exists. The
 * account's email counts as verified (createAuth.ts says why).
 */
export async function createUserAccount(
  auth: Auth,
  db: Db,
  input: { email: string; name: string; password: string; role: Role },
): Promise<{ id: string; email: string; role: Role }> {
  const parsed = newUserSchema.parse(input);
  if (await findUserByEmail(db, parsed.email))
    throw new UserExistsError(`A user with the email ${parsed.email} already exists.`);
  const { user } = await auth.api.createUser({
    body: { email: parsed.email, name: parsed.name, password: parsed.password, role: input.role },
  });
  return { id: user.id, email: user.email, role: input.role };
}
