import { readAuthSecret, SECRET_HELP } from "./authSecret";

/**
 * Whether this server requires sign-in. One decision, made from the
 * environment, that the guards, the proxy, the start script, the sign-in page
 * and the CLI share:
 *
 * - `ASSAY_AUTH_SECRET` set: sign-in is on. Every request needs a session and
 *   a role that allows what it does. A secret too short or too guessable is
 *   misconfigured, wherever Assay listens.
 * - no secret, listening on loopback (the laptop default): sign-in is off and
 *   every request addressed to a loopback name acts as a local admin.
 * - no secret, listening on anything else: misconfigured. The start script
 *   refuses to start; should a server run anyway, the guards refuse every
 *   request rather than serve a network without sign-in.
 */
export type AuthMode =
  | { kind: "on"; secret: string }
  | { kind: "off"; host: string }
  | { kind: "misconfigured"; host: string; message: string };

/** The environment variables read here (process.env, or a test's own). */
export type Env = Readonly<Record<string, string | undefined>>;

export const DEFAULT_HOST = "127.0.0.1";

/**
 * The host the server listens on: ASSAY_HOST, else HOSTNAME (what `next start` reads), else loopback.
 * scripts/serve.ts passes the host it decided to the server as both, so the server decides on the
 * address it was actually given.
 */
export function listenHost(env: Env): string {
  const configured = env.ASSAY_HOST?.trim() || env.HOSTNAME?.trim();
  return configured || DEFAULT_HOST;
}

/** The variable listenHost read the host from, for messages that tell the user what to change. */
export function listenHostSource(env: Env): "ASSAY_HOST" | "HOSTNAME" | null {
  if (env.ASSAY_HOST?.trim()) return "ASSAY_HOST";
  return env.HOSTNAME?.trim() ? "HOSTNAME" : null;
}

/** 127.0.0.0/8, ::1 (bracketed or not, IPv4-mapped too) and localhost: addresses no other machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  if (bare === "localhost" || bare === "::1" || bare === "0:0:0:0:0:0:0:1") return true;
  return /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/**
 * Set by the start script (scripts/serve.ts: `npm start`, `npm run dev`) to the address it checked and
 * handed to Next with -H. A server started any other way (`npx next start`, a Procfile, a service unit)
 * listens on every interface unless told otherwise, whatever ASSAY_HOST says, so only this marker tells the
 * server that its address really is the loopback one that sign-in off relies on.
 */
export const ADDRESS_CHECKED_VARIABLE = "ASSAY_ADDRESS_CHECKED";

/** Why a server without sign-in and without the start script's marker answers 503. */
export function uncheckedAddressMessage(host: string): string {
  return [
    "Sign-in is off, and this server was not started with `npm start` (or `npm run dev`), whose address check keeps a server without sign-in on this machine only.",
    `Started another way (\`next start\`, a Procfile, a service unit) it may listen on every interface, not only ${host}, so it refuses every request.`,
    "Start it with `npm start` (ASSAY_HOST chooses the address), or turn sign-in on with ASSAY_AUTH_SECRET.",
  ].join(" ");
}

/**
 * The server's own decision: decideAuthMode, except that sign-in off also needs the start script's marker
 * naming the address it checked; without it the server is misconfigured and refuses every request (503).
 * The start script, the CLI and scripts decide with decideAuthMode, before any server exists.
 */
export function decideServerAuthMode(env: Env = process.env): AuthMode {
  const mode = decideAuthMode(env);
  if (mode.kind !== "off" || env[ADDRESS_CHECKED_VARIABLE]?.trim() === mode.host) return mode;
  return { kind: "misconfigured", host: mode.host, message: uncheckedAddressMessage(mode.host) };
}

export function decideAuthMode(env: Env = process.env): AuthMode {
  const host = listenHost(env);
  const secret = readAuthSecret(env.ASSAY_AUTH_SECRET);
  if (secret.kind === "ok") return { kind: "on", secret: secret.secret };
  if (secret.kind === "weak") return { kind: "misconfigured", host, message: secret.message };
  if (isLoopbackHost(host)) return { kind: "off", host };
  return {
    kind: "misconfigured",
    host,
    message: `Assay is set to listen on ${host}, which other machines can reach, and sign-in is not configured. ${SECRET_HELP}`,
  };
}
