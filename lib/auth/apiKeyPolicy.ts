/**
 * How Assay configures Better Auth's API key plugin (@better-auth/api-key): what a key looks like, how
 * often it may be used, and which of the plugin's own HTTP endpoints stay closed.
 */

/** Every key starts with this, so a leaked one is recognisable (secret scanners, logs) and tells its use. */
export const API_KEY_PREFIX = "assay_";

/**
 * Requests a key may make per minute. The plugin's default is 10 a day, which one CI job would use up at once;
 * a CI run that follows a run's progress asks about once a second, and an export pages through results.
 */
export const API_KEY_REQUESTS_PER_MINUTE = 600;

/**
 * Keys one person may hold at once (unexpired; a revoked key is deleted). The rate limit is per key, so
 * without a cap a viewer could make keys until their requests had no bound; ten covers a CI key per
 * pipeline, a dashboard's and a spare while one is rotated.
 */
export const API_KEYS_PER_USER = 10;

/**
 * Requests all of one person's keys may make per minute together: twice one key's, so two CI jobs at full
 * speed still pass, while twenty keys no longer make twenty times the requests.
 */
export const API_KEY_OWNER_REQUESTS_PER_MINUTE = 2 * API_KEY_REQUESTS_PER_MINUTE;

/** The longest a key may live, in days (the plugin's bound on expiresIn); no expiry is also allowed. */
export const API_KEY_MAX_DAYS = 365;

/**
 * The plugin's routes under /api/auth. Assay creates, lists and revokes keys in its own actions, which hold a
 * key's role to its creator's; the plugin's create and update would take any metadata a signed-in user sends.
 */
export const API_KEY_HTTP_PATHS = [
  "/api-key/create",
  "/api-key/update",
  "/api-key/delete",
  "/api-key/get",
  "/api-key/list",
] as const;

export const apiKeyPluginOptions = {
  defaultPrefix: API_KEY_PREFIX,
  // The key's role is kept in its metadata ({ "role": … }).
  enableMetadata: true,
  requireName: true,
  maximumNameLength: 64,
  // The first characters (prefix included) are kept in the clear so a list can tell keys apart.
  startingCharactersConfig: { shouldStore: true, charactersLength: API_KEY_PREFIX.length + 6 },
  keyExpiration: { defaultExpiresIn: null, minExpiresIn: 1, maxExpiresIn: API_KEY_MAX_DAYS },
  rateLimit: { enabled: true, timeWindow: 60_000, maxRequests: API_KEY_REQUESTS_PER_MINUTE },
  schema: { apikey: { modelName: "apiKey" } },
};
