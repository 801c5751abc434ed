import type { Auth } from "./createAuth";

/**
 * What Assay reads of the API key plugin's table for its own per-person limits, through Better Auth's adapter
 * (the plugin's own store access; its table is Better Auth's, not one of Assay's repositories).
 */

/** The plugin's model name for its table. */
const API_KEY_MODEL = "apikey";

/** The plugin's rate-limit window (apiKeyPolicy.ts): a key's count covers its last minute of requests. */
const WINDOW_MS = 60_000;

type KeyUsage = {
  id: string;
  expiresAt: Date | string | null;
  requestCount: number | null;
  lastRequest: Date | string | null;
};

async function ownersKeys(auth: Auth, ownerId: string): Promise<KeyUsage[]> {
  const context = await auth.$context;
  return context.adapter.findMany<KeyUsage>({
    model: API_KEY_MODEL,
    where: [{ field: "referenceId", value: ownerId }],
  });
}

/** The owner's keys that still work (revoked keys are deleted; expired ones are not counted). */
export async function countLiveKeys(auth: Auth, ownerId: string, now = new Date()): Promise<number> {
  const keys = await ownersKeys(auth, ownerId);
  return keys.filter((key) => key.expiresAt === null || new Date(key.expiresAt) > now).length;
}

/**
 * Requests the owner's keys made in their current windows: the sum of each key's count, for keys used in the
 * last minute. Each key's count is raised atomically by the plugin before this is read, so of a burst spread
 * over many keys, the requests counted past the limit see a sum past it.
 */
export async function ownerRequestsThisMinute(auth: Auth, ownerId: string, now = new Date()): Promise<number> {
  const since = now.getTime() - WINDOW_MS;
  const keys = await ownersKeys(auth, ownerId);
  return keys
    .filter((key) => key.lastRequest !== null && new Date(key.lastRequest).getTime() > since)
    .reduce((sum, key) => sum + (key.requestCount ?? 0), 0);
}

export async function deleteKey(auth: Auth, id: string): Promise<void> {
  const context = await auth.$context;
  await context.adapter.delete({ model: API_KEY_MODEL, where: [{ field: "id", value: id }] });
}
