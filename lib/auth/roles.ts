import { z } from "zod";

/**
 * The three roles, weakest first. Each role can do everything the roles before
 * it can: a runner is a viewer who may also upload and run; an admin is a
 * runner who may also delete, rename and manage users and settings.
 */
export const ROLES = ["viewer", "runner", "admin"] as const;

export type Role = (typeof ROLES)[number];

export const roleSchema = z.enum(ROLES);

/** The role new accounts get (sign-up, OpenID Connect) until an admin changes it. */
export const DEFAULT_ROLE: Role = "viewer";

/** Whether `role` includes everything `minimum` may do. */
export function roleAtLeast(role: Role, minimum: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(minimum);
}

/**
 * Reads the role stored on a user. Better Auth's admin plugin stores roles as a
 * comma-separated string and may leave it empty; anything unknown counts as the
 * weakest role rather than failing open.
 */
export function parseStoredRole(stored: string | null | undefined): Role {
  const known = (stored ?? "")
    .split(",")
    .map((part) => roleSchema.safeParse(part.trim()))
    .flatMap((parsed) => (parsed.success ? [parsed.data] : []));
  return known.reduce<Role>((best, role) => (roleAtLeast(role, best) ? role : best), DEFAULT_ROLE);
}
