import { isLoopbackHost } from "./authMode";

/**
 * While sign-in is off every request acts as the local admin, so the request
 * must come from this machine's own browser, addressed to this machine by a
 * loopback name. Listening on 127.0.0.1 alone does not ensure that: a web page
 * whose domain its owner points at 127.0.0.1 (DNS rebinding) is same-origin
 * with Assay under that domain, and a forwarder on this machine (ngrok,
 * `tailscale serve`, an editor's port forwarding) hands other people's
 * requests to the loopback port. Both arrive with their own name in `Host`
 * (or `X-Forwarded-Host`), which a page cannot change; so a request is
 * accepted only when every such name is localhost, 127.0.0.0/8 or [::1],
 * with any port.
 */
export type LoopbackHostCheck = { ok: true } | { ok: false; message: string };

export function checkLoopbackAddressed(headers: Headers): LoopbackHostCheck {
  const host = headers.get("host");
  if (!host) return refuse("it names no host");
  const names = [host, ...(headers.get("x-forwarded-host")?.split(",") ?? [])].map((name) => name.trim());
  const foreign = names.find((name) => !isLoopbackHost(hostnameOf(name)));
  return foreign === undefined ? { ok: true } : refuse(`it was addressed to ${shown(foreign)}`);
}

/** `name`, `name:port`, `[v6]` or `[v6]:port` without the port; anything else as it is (and not loopback). */
function hostnameOf(host: string): string {
  const bracketed = /^(\[[^\]]*\])(?::\d+)?$/.exec(host);
  if (bracketed) return bracketed[1];
  const named = /^([^:[\]]+)(?::\d+)?$/.exec(host);
  return named ? named[1] : host;
}

function refuse(reason: string): LoopbackHostCheck {
  return {
    ok: false,
    message:
      `Assay refused this request: ${reason}. Sign-in is off on this server (ASSAY_AUTH_SECRET is not set), so it ` +
      "answers only requests addressed to localhost, 127.0.0.1 or [::1]: under any other name a web page or a " +
      "tunnel (ngrok, tailscale serve, port forwarding) could act as this machine's admin. Open Assay at " +
      "http://localhost:<port> on this machine; to reach it from elsewhere, turn sign-in on with ASSAY_AUTH_SECRET " +
      '(docs/security.md, "Exposing Assay to a network").',
  };
}

function shown(text: string): string {
  const clean = text.replace(/[\p{Cc}]/gu, "?");
  return clean.length > 100 ? `${clean.slice(0, 100)}…` : clean;
}
