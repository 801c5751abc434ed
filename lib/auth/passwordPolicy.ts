import { z } from "zod";

/**
 * One password policy for every way a password is set: email sign-up, Better
 * Auth's admin create-user and set-user-password, and `npm run user:create`.
 */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

export const passwordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `The password needs at least ${MIN_PASSWORD_LENGTH} characters.`)
  .max(MAX_PASSWORD_LENGTH, `The password can have at most ${MAX_PASSWORD_LENGTH} characters.`);

/** Why a password breaks the policy, or null when it keeps it. */
export function passwordProblem(password: unknown): string | null {
  const parsed = passwordSchema.safeParse(password);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? "The password is not allowed.");
}
