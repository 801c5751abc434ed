/**
 * Whether this server requires sign-in. One decision, made from the
 * environment, that the guards, the sign-in page and the CLI share:
 *
 * - `ASSAY_AUTH_SECRET` set: sign-in is on. Every request needs a session and
 *   a role that allows what it does.
 * - no secret, listening on loopback (the laptop default): sign-in is off and
 *   every request acts as a local admin, as Assay always has.
 * - no secret, listening on anything else: misconfigured. The start script
 *   refuses to listen; should a server run anyway, the guards refuse every
 *   request rather than serve a network without sign-in.
 */
export type AuthMode =
  | { kind: "on"; secret: string }
  | { kind: "off"; host: string }
  | { kind: "misconfigured"; host: string; message: string };

/** The environment variables read here (process.env, or a test's own). */
export type Env = Readonly<Record<string, string | undefined>>;

/** Better Auth wants at least 32 characters of secret. */
export const MIN_SECRET_LENGTH = 32;

export const DEFAULT_HOST = "127.0.0.1";

/** The host the server listens on: ASSAY_HOST, else HOSTNAME (what `next start` reads), else loopback. */
export function listenHost(env: Env): string {
  const configured = env.ASSAY_HOST?.trim() || env.HOSTNAME?.trim();
  return configured || DEFAULT_HOST;
}

/** 127.0.0.0/8, ::1 and localhost: addresses no other machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  if (bare === "localhost" || bare === "::1" || bare === "0:0:0:0:0:0:0:1") return true;
  if (/^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

export const SECRET_HELP =
  "Set ASSAY_AUTH_SECRET to a random string of at least 32 characters (for example `openssl rand -base64 32`), " +
  "then create the first admin with `npm run user:create -- --admin you@example.com`.";

export function decideAuthMode(env: Env = process.env): AuthMode {
  const host = listenHost(env);
  const secret = env.ASSAY_AUTH_SECRET?.trim();
  if (secret) {
    if (secret.length < MIN_SECRET_LENGTH)
      return {
        kind: "misconfigured",
        host,
        message: `ASSAY_AUTH_SECRET is ${secret.length} characters; it needs at least ${MIN_SECRET_LENGTH}. ${SECRET_HELP}`,
      };
    return { kind: "on", secret };
  }
  if (isLoopbackHost(host)) return { kind: "off", host };
  return {
    kind: "misconfigured",
    host,
    message: `Assay is set to listen on ${host}, which other machines can reach, and sign-in is not configured. ${SECRET_HELP}`,
  };
}
