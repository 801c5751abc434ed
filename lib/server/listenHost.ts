import {
  DEFAULT_HOST,
  decideAuthMode,
  isLoopbackHost,
  listenHost,
  listenHostSource,
  type Env,
} from "@/lib/auth/authMode";

/**
 * Where `npm start` and `npm run dev` listen, and whether they may start at
 * all: the auth-mode decision (lib/auth/authMode.ts) as the start script
 * reads it. Loopback (127.0.0.1) unless ASSAY_HOST (or HOSTNAME) names
 * another address; any other address needs an auth secret first, and a
 * secret that is set must be usable wherever Assay listens. Assay serves
 * every dataset, export and run, and spends the team's API key, to whoever
 * reaches the port.
 */
export type ListenDecision =
  { ok: true; host: string; loopback: boolean; signIn: boolean } | { ok: false; host: string; message: string };

const MAKE_A_SECRET = `  export ASSAY_AUTH_SECRET="$(openssl rand -base64 32)"`;

export function decideListenHost(env: Env): ListenDecision {
  const mode = decideAuthMode(env);
  const host = listenHost(env);
  const loopback = isLoopbackHost(host);
  if (mode.kind !== "misconfigured") return { ok: true, host, loopback, signIn: mode.kind === "on" };
  if (env.ASSAY_AUTH_SECRET?.trim())
    return {
      ok: false,
      host,
      message: [
        "Assay will not start with this ASSAY_AUTH_SECRET: sessions signed with it could be forged.",
        mode.message,
        "Make one and start again:",
        MAKE_A_SECRET,
        ...(loopback ? ["Or unset ASSAY_AUTH_SECRET to use Assay on this machine only, without sign-in."] : []),
      ].join("\n"),
    };
  const source = listenHostSource(env) ?? "ASSAY_HOST";
  return {
    ok: false,
    host,
    message: [
      `Assay will not listen on ${host} (${source}) without an auth secret: anyone who can reach that address could read every dataset and spend your API key.`,
      "ASSAY_AUTH_SECRET is not set.",
      "Set one (at least 32 random characters) and start again:",
      MAKE_A_SECRET,
      `Or unset ${source} to listen on ${DEFAULT_HOST} only.`,
    ].join("\n"),
  };
}

/**
 * The first argument meant for `next` that would choose its address
 * (`-H x`, `-Hx`, `--hostname x`, `--hostname=x`), or a bare `--`, after
 * which the start script's own `-H` would no longer be read as an option.
 * Next takes the last `-H` it is given, so one passed through would make the
 * server listen somewhere the decision above never saw.
 */
export function hostArgumentIn(args: readonly string[]): string | null {
  return args.find((arg) => arg === "--" || arg.startsWith("-H") || /^--hostname(=|$)/.test(arg)) ?? null;
}

export function hostArgumentMessage(arg: string): string {
  return [
    `Assay does not pass "${arg}" to Next.js: the address is chosen by ASSAY_HOST, so that the start-up check and sign-in see the address the server really listens on.`,
    `Start it with ASSAY_HOST instead, e.g. ASSAY_HOST=0.0.0.0 npm start (any address other than loopback also needs ASSAY_AUTH_SECRET).`,
  ].join("\n");
}

/**
 * A `--inspect` meant for next (any spelling): Next opens the Node.js debugger at the address it is given,
 * and a debugger port runs any code for whoever reaches it, so `npm start -- --inspect=0.0.0.0:9229` would
 * expose more than the address check guards. Debugging is a developer's choice made through NODE_OPTIONS.
 */
export function debuggerArgumentIn(args: readonly string[]): string | null {
  return args.find((arg) => /^--inspect(-brk|-wait)?(=|$)/.test(arg)) ?? null;
}

export function debuggerArgumentMessage(arg: string): string {
  return [
    `Assay does not pass "${arg}" to Next.js: a debugger port runs any code for whoever can reach it.`,
    `To debug on this machine, use Node's own option: NODE_OPTIONS=--inspect=127.0.0.1:9229 npm run dev`,
  ].join("\n");
}
