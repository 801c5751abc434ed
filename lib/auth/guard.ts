import { bearerKey, resolveApiKey } from "./apiKeys";
import type { Auth } from "./createAuth";
import type { AuthMode } from "./authMode";
import { checkLoopbackAddressed } from "./loopbackHost";
import { describeAction, KEYLESS_ACTIONS, minimumRoleFor, roleCan, type Action } from "./permissions";
import type { AuthUser } from "./authUser";
import { parseStoredRole } from "./roles";

export type { AuthUser } from "./authUser";

/** While sign-in is off (loopback, no secret), every request is this user: Assay as it always was on a laptop. */
export const LOCAL_ADMIN: AuthUser = { id: "local", name: "Local admin", email: null, role: "admin", local: true };

/** What a guard needs: the auth mode, and (when sign-in is on) Better Auth to resolve sessions. */
export type AuthContext = { mode: AuthMode; auth: () => Auth };

/**
 * 401: no session (or an API key that is not valid); 403: a role too weak; 429: an API key over its rate
 * limit; 503: the server requires sign-in but cannot offer it.
 */
export type RefusalStatus = 401 | 403 | 429 | 503;

export type Refusal = { status: RefusalStatus; message: string; retryAfterSeconds?: number };
export type Access = { ok: true; user: AuthUser } | ({ ok: false } & Refusal);

/** Thrown by requireRole; route handlers turn it into a response with refusalResponse(). */
export class AuthRefusal extends Error {
  constructor(
    readonly status: RefusalStatus,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "AuthRefusal";
  }
}

/**
 * The signed-in user behind these request headers, or null (signed out, expired, banned). While sign-in is
 * off, the local admin, but only for a request addressed to a loopback name (lib/auth/loopbackHost.ts).
 */
export async function resolveUser(requestHeaders: Headers, context: AuthContext): Promise<AuthUser | null> {
  if (context.mode.kind === "off") return checkLoopbackAddressed(requestHeaders).ok ? LOCAL_ADMIN : null;
  if (context.mode.kind === "misconfigured") return null;
  const session = await context.auth().api.getSession({ headers: requestHeaders });
  if (!session || session.user.banned) return null;
  return {
    id: session.user.id,
    name: session.user.name,
    email: session.user.email,
    role: parseStoredRole(session.user.role),
    local: false,
  };
}

/**
 * What a request may present: `session` for server actions and pages, which are the browser's (a signed-in
 * person's cookie); `sessionOrKey` for route handlers, which CI and scripts also call with an API key. Keys
 * are made for CI, where they leak: one that reached a server action could create an admin who outlives it.
 */
export type Credentials = "session" | "sessionOrKey";

/** Said to a request that carries an API key where only a signed-in person is accepted. */
export const KEY_NOT_ACCEPTED_MESSAGE =
  "API keys work with the HTTP API (/api/v1) and the upload, label, progress and export routes only; this needs a signed-in session in the browser.";

/** Decides whether the request may take `action`, without throwing. */
export async function checkAccess(
  action: Action,
  requestHeaders: Headers,
  context: AuthContext,
  credentials: Credentials = "session",
): Promise<Access> {
  if (context.mode.kind === "misconfigured") return { ok: false, status: 503, message: context.mode.message };
  // proxy.ts refuses these first; the upload and label routes, which it leaves alone so that their bodies
  // stream, and any other path that escapes it, are refused here.
  if (context.mode.kind === "off") {
    const addressed = checkLoopbackAddressed(requestHeaders);
    if (!addressed.ok) return { ok: false, status: 403, message: addressed.message };
  }
  // A request with an API key acts as the key's owner with the key's role; while sign-in is off there are no
  // keys, and a loopback request is the local admin with or without one.
  const key = context.mode.kind === "on" ? bearerKey(requestHeaders) : null;
  if (key !== null) {
    // Refused before the key is looked up: where keys are not accepted, a valid one and a forged one are alike.
    if (credentials === "session") return { ok: false, status: 401, message: KEY_NOT_ACCEPTED_MESSAGE };
    if (KEYLESS_ACTIONS.has(action))
      return {
        ok: false,
        status: 403,
        message: `An API key cannot ${describeAction(action)}; that takes a signed-in person.`,
      };
    const keyAccess = await resolveApiKey(context.auth(), key);
    if (!keyAccess.ok) return keyAccess;
    return roleAllows(keyAccess.user, action);
  }
  const user = await resolveUser(requestHeaders, context);
  if (!user) return { ok: false, status: 401, message: `Sign in to ${describeAction(action)}.` };
  return roleAllows(user, action);
}

function roleAllows(user: AuthUser, action: Action): Access {
  if (!roleCan(user.role, action)) {
    const needed = minimumRoleFor(action);
    return {
      ok: false,
      status: 403,
      message: `${user.apiKey ? "This API key's role" : "Your role"} (${user.role}) cannot ${describeAction(action)}; it needs ${needed === "admin" ? "an admin" : `a ${needed} or an admin`}.`,
    };
  }
  return { ok: true, user };
}

/** The user, or an AuthRefusal thrown. */
export async function authorize(
  action: Action,
  requestHeaders: Headers,
  context: AuthContext,
  credentials: Credentials = "session",
): Promise<AuthUser> {
  const access = await checkAccess(action, requestHeaders, context, credentials);
  if (!access.ok) throw new AuthRefusal(access.status, access.message, access.retryAfterSeconds);
  return access.user;
}

/** A JSON refusal for route handlers: `{ "error": message }` with 401, 403, 429 (and Retry-After) or 503. */
export function refusalResponse(refusal: Refusal): Response {
  return Response.json(
    { error: refusal.message },
    {
      status: refusal.status,
      headers: {
        "cache-control": "no-store",
        ...(refusal.retryAfterSeconds ? { "retry-after": String(refusal.retryAfterSeconds) } : {}),
      },
    },
  );
}
