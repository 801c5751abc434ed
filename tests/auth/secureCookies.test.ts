import { describe, expect, it } from "vitest";
import { secureCookieRefused, usesSecureCookies } from "@/lib/auth/secureCookies";

describe("sign-in cookies for HTTPS only", () => {
  it("follow the base URL's scheme, and without one are Secure in production only", () => {
    expect(usesSecureCookies("https://assay.example.com", "development")).toBe(true);
    expect(usesSecureCookies("http://10.0.0.5:3000", "production")).toBe(false);
    expect(usesSecureCookies(undefined, "production")).toBe(true);
    expect(usesSecureCookies(undefined, "development")).toBe(false);
  });

  it("are dropped by a browser on a plain-HTTP page of a non-loopback host, and kept everywhere else", () => {
    const page = (host: string | null, forwardedProto: string | null = null) => ({ host, forwardedProto });
    expect(secureCookieRefused(true, page("10.0.0.5:3000"))).toBe(true);
    expect(secureCookieRefused(true, page("assay.internal"))).toBe(true);
    expect(secureCookieRefused(true, page("127.0.0.1:3000"))).toBe(false);
    expect(secureCookieRefused(true, page("localhost:3000"))).toBe(false);
    expect(secureCookieRefused(true, page("[::1]:3000"))).toBe(false);
    // Behind a TLS proxy the browser spoke HTTPS.
    expect(secureCookieRefused(true, page("assay.example.com", "https"))).toBe(false);
    expect(secureCookieRefused(true, page("assay.example.com", "https, http"))).toBe(false);
    // Cookies without Secure are kept over plain HTTP.
    expect(secureCookieRefused(false, page("10.0.0.5:3000"))).toBe(false);
  });
});
