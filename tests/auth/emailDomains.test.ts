import { describe, expect, it } from "vitest";
import { isEmailDomainAllowed, MAX_ALLOWED_DOMAINS, parseDomainList } from "@/lib/auth/emailDomains";

describe("the allowed email-domain list", () => {
  it("reads domains separated by commas, spaces or lines, in lower case, without a leading @, once each", () => {
    expect(parseDomainList(" Example.com,@lab.example.org\nexample.com; team.example.net ")).toEqual({
      ok: true,
      domains: ["example.com", "lab.example.org", "team.example.net"],
    });
    expect(parseDomainList("   ")).toEqual({ ok: true, domains: [] });
  });

  it("refuses what is not a domain, naming it, and a list that is too long", () => {
    for (const bad of ["https://example.com", "someone@example.com", "localhost", "exa_mple.com", "-x.com"])
      expect(parseDomainList(bad), bad).toMatchObject({
        ok: false,
        message: expect.stringContaining("is not a domain name"),
      });
    const many = Array.from({ length: MAX_ALLOWED_DOMAINS + 1 }, (_, i) => `d${i}.example.com`).join(",");
    expect(parseDomainList(many)).toEqual({ ok: false, message: `List at most ${MAX_ALLOWED_DOMAINS} domains.` });
  });

  it("matches the part after the last @ exactly; an empty list allows any domain", () => {
    expect(isEmailDomainAllowed("ann@Example.com", ["example.com"])).toBe(true);
    expect(isEmailDomainAllowed("ann@sub.example.com", ["example.com"])).toBe(false);
    expect(isEmailDomainAllowed("ann@example.com.evil.org", ["example.com"])).toBe(false);
    expect(isEmailDomainAllowed('"a@example.com"@evil.org', ["example.com"])).toBe(false);
    expect(isEmailDomainAllowed("ann@anything.org", [])).toBe(true);
  });
});
