import { z } from "zod";
import { ACTIONS } from "@/lib/auth/permissions";
import { firstValues, type SearchParams } from "./searchParams";

/**
 * The sign-in page's URL: where to go afterwards (`next`), which action a
 * signed-in user was refused (`denied`, from a page guard), and Better Auth's
 * `error` code when an OpenID Connect sign-in came back refused.
 */
const signInQuerySchema = z.object({
  next: z.string().max(2000).optional().catch(undefined),
  denied: z
    .enum(ACTIONS as [string, ...string[]])
    .optional()
    .catch(undefined),
  error: z
    .string()
    .max(100)
    .regex(/^[A-Za-z0-9_.-]+$/)
    .optional()
    .catch(undefined),
});

export type SignInQuery = z.infer<typeof signInQuerySchema>;

export function parseSignInQuery(searchParams: SearchParams): SignInQuery {
  return signInQuerySchema.parse(firstValues(searchParams));
}
