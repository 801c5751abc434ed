import { describe, expect, it } from "vitest";
import { usesSecureCookies } from "@/lib/auth/secureCookies";

describe("sign-in cookies for HTTPS only", () => {
  it("follow the base URL's scheme, and without one are Secure in production only", () => {
    expect(usesSecureCookies("https://assay.example.com", "development")).toBe(true);
    expect(usesSecureCookies("http://10.0.0.5:3000", "production")).toBe(false);
    expect(usesSecureCookies(undefined, "production")).toBe(true);
    expect(usesSecureCookies(undefined, "development")).toBe(false);
  });
});
