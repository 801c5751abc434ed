"use client";

import { useEffect, useState } from "react";

/**
 * Says, before anyone tries, when this browser will drop the sign-in cookie: the server's cookie is
 * `Secure` (HTTPS only) and this page is not a secure context (plain HTTP on a network address;
 * http://localhost and 127.0.0.1 count as secure). Decided in the browser, which knows how the page
 * was loaded even behind a TLS proxy that does not say so in X-Forwarded-Proto.
 */
export function InsecureCookieNotice({ secureCookies }: { secureCookies: boolean }) {
  const [refused, setRefused] = useState<boolean | null>(null);
  useEffect(() => setRefused(secureCookies && !window.isSecureContext), [secureCookies]);
  if (refused === null) return null;
  if (!refused) return <span hidden data-testid="cookie-context-checked" />;
  return (
    <p
      role="alert"
      className="mb-3 rounded border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
      data-testid="insecure-origin"
    >
      This page came over plain HTTP, and this server&apos;s sign-in cookie is for HTTPS only, so your browser would
      drop it and sign-in would not stick. Serve Assay over HTTPS (set ASSAY_BASE_URL to its https:// address), or, on a
      network you trust, set ASSAY_BASE_URL to this http:// address and restart.
    </p>
  );
}
