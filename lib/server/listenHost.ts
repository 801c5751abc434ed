/**
 * Where `npm start` and `npm run dev` listen. Loopback (127.0.0.1) unless
 * ASSAY_HOST (or HOSTNAME, which Next.js itself reads) names another address,
 * and any other address needs an auth secret first: Assay serves every
 * dataset, export and run, and spends the team's API key, to whoever reaches
 * the port.
 */
export type ListenDecision =
  { ok: true; host: string; loopback: boolean } | { ok: false; host: string; message: string };

export const MIN_AUTH_SECRET_CHARS = 32;
const DEFAULT_HOST = "127.0.0.1";

export function decideListenHost(env: Record<string, string | undefined>): ListenDecision {
  const host = env.ASSAY_HOST?.trim() || env.HOSTNAME?.trim() || DEFAULT_HOST;
  if (isLoopback(host)) return { ok: true, host, loopback: true };
  const secret = env.ASSAY_AUTH_SECRET ?? "";
  if (secret.length >= MIN_AUTH_SECRET_CHARS) return { ok: true, host, loopback: false };
  const source = env.ASSAY_HOST?.trim() ? "ASSAY_HOST" : "HOSTNAME";
  const problem = secret
    ? `ASSAY_AUTH_SECRET is ${secret.length} characters; it needs at least ${MIN_AUTH_SECRET_CHARS}.`
    : "ASSAY_AUTH_SECRET is not set.";
  return {
    ok: false,
    host,
    message: [
      `Assay will not listen on ${host} (${source}) without an auth secret: anyone who can reach that address could read every dataset and spend your API key.`,
      problem,
      `Set one (at least ${MIN_AUTH_SECRET_CHARS} random characters) and start again:`,
      `  export ASSAY_AUTH_SECRET="$(openssl rand -base64 32)"`,
      `Or unset ${source} to listen on ${DEFAULT_HOST} only.`,
    ].join("\n"),
  };
}

/** 127.0.0.0/8, ::1 (bracketed or not, IPv4-mapped too) and localhost. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (bare === "localhost" || bare === "::1" || bare === "0:0:0:0:0:0:0:1") return true;
  const v4 = bare.replace(/^::ffff:/, "");
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}
