import { headers } from "next/headers";
import { appAuthContext } from "./appAuth";
import { authorize, checkAccess, resolveUser, type Access, type AuthUser } from "./guard";
import type { Action } from "./permissions";

/**
 * The guards server actions, route handlers and pages call. Each reads the
 * request's headers itself (next/headers) unless given them: a route handler
 * passes `request.headers`, a test passes a cookie header. Server actions and
 * pages accept a signed-in session only; route handlers (checkRouteRole) a
 * session or an API key.
 */

/** The signed-in user allowed to take `action`, or an AuthRefusal (401, 403 or 503) thrown. */
export async function requireRole(action: Action, requestHeaders?: Headers): Promise<AuthUser> {
  return authorize(action, requestHeaders ?? (await headers()), appAuthContext(), "session");
}

/** Like requireRole, but returns the refusal: for form actions that answer `{ message, errors }`, and pages. */
export async function checkRole(action: Action, requestHeaders?: Headers): Promise<Access> {
  return checkAccess(action, requestHeaders ?? (await headers()), appAuthContext(), "session");
}

/** For route handlers, which CI and scripts call too: a signed-in session or an API key (`Authorization: Bearer`). */
export async function checkRouteRole(action: Action, requestHeaders: Headers): Promise<Access> {
  return checkAccess(action, requestHeaders, appAuthContext(), "sessionOrKey");
}

/** Who is asking (the local admin while sign-in is off), or null when signed out: for pages. */
export async function currentUser(requestHeaders?: Headers): Promise<AuthUser | null> {
  return resolveUser(requestHeaders ?? (await headers()), appAuthContext());
}
