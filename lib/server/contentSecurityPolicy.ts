/**
 * The page Content-Security-Policy (set per request by proxy.ts). Scripts run
 * only from this origin and only when they carry the request's nonce (Next.js
 * reads it from this header while rendering and puts it on its own scripts;
 * 'strict-dynamic' lets those load the chunks they import), so a script that
 * uploaded content smuggles into a page never runs. Styles allow inline style
 * attributes (charts and bars set widths that way); they cannot run code.
 * No upgrade-insecure-requests: Assay is usually served over plain http on
 * 127.0.0.1, where upgrading would break every asset.
 */
export function contentSecurityPolicy(nonce: string, options: { development: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** 16 random bytes, base64: a fresh, unguessable nonce for one response. */
export function newCspNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
