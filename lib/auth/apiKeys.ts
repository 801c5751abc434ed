import { z } from "zod";
import type { ApiKeySummary } from "@/lib/db/accounts/apiKeyQueries";
import type { Auth } from "./createAuth";
import { countLiveKeys, deleteKey, ownerRequestsThisMinute } from "./apiKeyUsage";
import { API_KEY_MAX_DAYS, API_KEY_OWNER_REQUESTS_PER_MINUTE, API_KEYS_PER_USER } from "./apiKeyPolicy";
import type { AuthUser } from "./authUser";
import { parseStoredRole, roleAtLeast, roleSchema, type Role } from "./roles";

/**
 * API keys: what a key may do, and who a request that carries one acts as. Better Auth's API key plugin
 * generates, hashes, stores, expires and rate-limits them; Assay adds a role to each key and holds it to
 * its creator's.
 */

export const newApiKeySchema = z.object({
  name: z.string().trim().min(1, "Name the key (what uses it, e.g. “CI on main”).").max(64),
  role: roleSchema,
  /** Days until the key stops working; omitted, it works until revoked. */
  expiresInDays: z.number().int().min(1).max(API_KEY_MAX_DAYS).optional(),
});
export type NewApiKey = z.infer<typeof newApiKeySchema>;

/** A key that may not be made: a role above its creator's, or one key more than API_KEYS_PER_USER. */
export class ApiKeyRefusedError extends Error {}

/**
 * Creates a key for `creator`, acting with `role` (never above the creator's own), while they hold fewer
 * than API_KEYS_PER_USER. Returns the raw key, which is shown once: only its hash is stored.
 */
export async function createApiKey(
  auth: Auth,
  creator: { id: string; role: Role },
  input: NewApiKey,
): Promise<{ id: string; key: string; role: Role; expiresAt: Date | null }> {
  const parsed = newApiKeySchema.parse(input);
  if (!roleAtLeast(creator.role, parsed.role))
    throw new ApiKeyRefusedError(`A key cannot have a higher role than its creator's (${creator.role}).`);
  const created = await auth.api.createApiKey({
    body: {
      name: parsed.name,
      userId: creator.id,
      metadata: { role: parsed.role },
      ...(parsed.expiresInDays ? { expiresIn: parsed.expiresInDays * 86_400 } : {}),
    },
  });
  // Counted after the key is stored, so that a burst of creations cannot all pass one count made before any
  // of them: each counts itself and the others, and a key over the cap is deleted before anyone sees it.
  if ((await countLiveKeys(auth, creator.id)) > API_KEYS_PER_USER) {
    await deleteKey(auth, created.id);
    throw new ApiKeyRefusedError(
      `You already have ${API_KEYS_PER_USER} API keys, the most one person may hold. Revoke one you no longer use, then make this one.`,
    );
  }
  return {
    id: created.id,
    key: created.key,
    role: parsed.role,
    expiresAt: created.expiresAt ? new Date(created.expiresAt) : null,
  };
}

/** The role a key's metadata names (the weakest when it names none). */
export function keyRole(metadata: unknown): Role {
  const parsed = typeof metadata === "string" ? safeJson(metadata) : metadata;
  const role = (parsed as { role?: unknown } | null)?.role;
  return parseStoredRole(typeof role === "string" ? role : null);
}

/** A summary's role, for lists. */
export function summaryRole(summary: ApiKeySummary): Role {
  return keyRole(summary.metadata);
}

/** The key in `Authorization: Bearer …`, or null when the header is absent or another scheme. */
export function bearerKey(requestHeaders: Headers): string | null {
  const header = requestHeaders.get("authorization");
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match ? match[1] : null;
}

export type KeyAccess =
  { ok: true; user: AuthUser } | { ok: false; status: 401 | 429; message: string; retryAfterSeconds?: number };

/**
 * Who a request carrying `key` acts as: the key's owner, with the key's role or the owner's current one if
 * that is lower (a demoted owner's keys are demoted with them). Refused: an unknown, revoked or expired key,
 * a banned owner, and a key over its rate limit (429, with when to try again).
 */
export async function resolveApiKey(auth: Auth, key: string): Promise<KeyAccess> {
  const verified = await auth.api.verifyApiKey({ body: { key } });
  if (!verified.valid || !verified.key) {
    const code = verified.error?.code;
    if (code === "RATE_LIMITED") {
      const tryAgainIn = Number((verified.error as { details?: { tryAgainIn?: number } }).details?.tryAgainIn ?? 0);
      return {
        ok: false,
        status: 429,
        message: "This API key has made too many requests; try again shortly.",
        retryAfterSeconds: Math.max(1, Math.ceil(tryAgainIn / 1000)),
      };
    }
    return {
      ok: false,
      status: 401,
      message:
        code === "KEY_EXPIRED" ? "This API key has expired." : "This API key is not valid (revoked or mistyped).",
    };
  }
  // Through Better Auth's own adapter, as its session lookup reads a signed-in user.
  const owner = (await (await auth.$context).internalAdapter.findUserById(verified.key.referenceId)) as {
    id: string;
    name: string;
    email: string;
    role?: string | null;
    banned?: boolean | null;
  } | null;
  if (!owner || owner.banned) return { ok: false, status: 401, message: "This API key's owner can no longer sign in." };
  // After the plugin counted this request against its key, so a burst over several keys sees itself here.
  if ((await ownerRequestsThisMinute(auth, owner.id)) > API_KEY_OWNER_REQUESTS_PER_MINUTE)
    return {
      ok: false,
      status: 429,
      message: `The API keys of this key's owner have made more than ${API_KEY_OWNER_REQUESTS_PER_MINUTE} requests in the last minute together; try again shortly.`,
      retryAfterSeconds: 60,
    };
  const ownerRole = parseStoredRole(owner.role);
  const role = keyRole(verified.key.metadata);
  return {
    ok: true,
    user: {
      id: owner.id,
      name: owner.name,
      email: owner.email,
      role: roleAtLeast(ownerRole, role) ? role : ownerRole,
      local: false,
      apiKey: { id: verified.key.id, name: verified.key.name ?? "" },
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
