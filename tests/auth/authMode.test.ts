import { describe, expect, it } from "vitest";
import { decideAuthMode, decideServerAuthMode, isLoopbackHost, listenHost } from "@/lib/auth/authMode";
import { OidcConfigError, readOidcConfig } from "@/lib/auth/oidcConfig";
import { checkOidcAtStart } from "@/lib/server/oidcStartCheck";
import { ACTION_MIN_ROLE, ACTIONS, roleCan } from "@/lib/auth/permissions";
import { parseStoredRole } from "@/lib/auth/roles";
import { safeNextPath } from "@/lib/auth/safeRedirect";
import { TEST_SECRET as SECRET } from "./authKit";

describe("the auth-off decision", () => {
  it("is off on loopback without a secret: the laptop default", () => {
    expect(decideAuthMode({})).toEqual({ kind: "off", host: "127.0.0.1" });
    expect(decideAuthMode({ ASSAY_HOST: "localhost" }).kind).toBe("off");
    expect(decideAuthMode({ ASSAY_HOST: "::1" }).kind).toBe("off");
    expect(decideAuthMode({ HOSTNAME: "127.0.0.2" }).kind).toBe("off");
  });

  it("is on whenever ASSAY_AUTH_SECRET is set, on loopback too", () => {
    expect(decideAuthMode({ ASSAY_AUTH_SECRET: SECRET })).toEqual({ kind: "on", secret: SECRET });
    expect(decideAuthMode({ ASSAY_AUTH_SECRET: SECRET, ASSAY_HOST: "0.0.0.0" }).kind).toBe("on");
  });

  it("is off in the server only with npm start's marker naming the address it checked", () => {
    // `npx next start`, a Procfile, a unit: no marker, and Next listens on every interface whatever ASSAY_HOST says.
    for (const env of [{}, { ASSAY_HOST: "127.0.0.1" }, { HOSTNAME: "localhost" }]) {
      const mode = decideServerAuthMode(env);
      expect(mode.kind).toBe("misconfigured");
      if (mode.kind === "misconfigured") expect(mode.message).toContain("was not started with `npm start`");
    }
    // A marker for another address than the one the server decides on is not the check of this one.
    expect(decideServerAuthMode({ ASSAY_HOST: "localhost", ASSAY_ADDRESS_CHECKED: "127.0.0.1" }).kind).toBe(
      "misconfigured",
    );
    expect(decideServerAuthMode({ ASSAY_HOST: "127.0.0.1", ASSAY_ADDRESS_CHECKED: "127.0.0.1" })).toEqual({
      kind: "off",
      host: "127.0.0.1",
    });
    expect(decideServerAuthMode({ ASSAY_ADDRESS_CHECKED: "127.0.0.1" }).kind).toBe("off");
    // Sign-in on needs no marker: every request needs an account wherever it listens.
    expect(decideServerAuthMode({ ASSAY_AUTH_SECRET: SECRET }).kind).toBe("on");
  });

  it("is misconfigured, never off, on a reachable host without a secret", () => {
    for (const host of ["0.0.0.0", "::", "10.0.0.5", "assay.internal", "128.0.0.1"]) {
      const mode = decideAuthMode({ ASSAY_HOST: host });
      expect(mode.kind, host).toBe("misconfigured");
      if (mode.kind === "misconfigured") expect(mode.message).toContain("ASSAY_AUTH_SECRET");
    }
  });

  it("refuses a short secret instead of signing sessions with it", () => {
    const mode = decideAuthMode({ ASSAY_AUTH_SECRET: "short" });
    expect(mode.kind).toBe("misconfigured");
  });

  it("refuses a guessable secret of any length, on loopback too, saying how to make one", () => {
    for (const weak of ["a".repeat(32), "abcd".repeat(8), "password".repeat(4)]) {
      const mode = decideAuthMode({ ASSAY_AUTH_SECRET: weak });
      expect(mode.kind, weak).toBe("misconfigured");
      if (mode.kind === "misconfigured") expect(mode.message).toContain("ASSAY_AUTH_SECRET looks guessable");
      if (mode.kind === "misconfigured") expect(mode.message).toContain("openssl rand -base64 32");
    }
  });

  it("uses a padded secret trimmed, and counts its length trimmed", () => {
    expect(decideAuthMode({ ASSAY_AUTH_SECRET: `  ${SECRET}\n` })).toEqual({ kind: "on", secret: SECRET });
    const padded = decideAuthMode({ ASSAY_AUTH_SECRET: `${"  ".repeat(10)}${SECRET.slice(0, 30)}` });
    expect(padded.kind).toBe("misconfigured");
    if (padded.kind === "misconfigured") expect(padded.message).toContain("ASSAY_AUTH_SECRET is 30 characters");
  });

  it("reads ASSAY_HOST before HOSTNAME, and loopback by default", () => {
    expect(listenHost({ ASSAY_HOST: "0.0.0.0", HOSTNAME: "127.0.0.1" })).toBe("0.0.0.0");
    expect(listenHost({ HOSTNAME: "box" })).toBe("box");
    expect(listenHost({ ASSAY_HOST: "  " })).toBe("127.0.0.1");
    expect(isLoopbackHost("[::1]")).toBe(true);
    expect(isLoopbackHost("127.evil.example")).toBe(false);
  });
});

describe("the policy table", () => {
  it("gives each role what the issue lists, and nothing more", () => {
    const allowed = (role: "viewer" | "runner" | "admin") => ACTIONS.filter((action) => roleCan(role, action)).sort();
    expect(allowed("viewer")).toEqual(["apikeys.own", "data.read", "export"]);
    expect(allowed("runner")).toEqual(
      [
        "apikeys.own",
        "data.read",
        "export",
        "dataset.upload",
        "run.start",
        "run.cancel",
        "run.rejudge",
        "run.resume",
        "run.estimate",
        "labels.write",
        "judge.align",
      ].sort(),
    );
    expect(allowed("admin")).toEqual([...ACTIONS].sort());
    expect(ACTION_MIN_ROLE["run.delete"]).toBe("admin");
  });

  it("reads a missing or unknown stored role as viewer, never as more", () => {
    expect(parseStoredRole(null)).toBe("viewer");
    expect(parseStoredRole("superuser")).toBe("viewer");
    expect(parseStoredRole("user")).toBe("viewer");
    expect(parseStoredRole("viewer,admin")).toBe("admin");
  });
});

describe("small pieces", () => {
  it("redirects after sign-in only to a path on this site", () => {
    expect(safeNextPath("/runs/abc?x=1")).toBe("/runs/abc?x=1");
    for (const bad of ["//evil.example", "/\\evil.example", "https://evil.example", "javascript:alert(1)", "", null])
      expect(safeNextPath(bad)).toBe("/datasets");
  });

  it("configures OpenID Connect only when all three variables are set, and names the missing one", () => {
    expect(readOidcConfig({})).toBeNull();
    const full = {
      ASSAY_OIDC_ISSUER: "https://id.example.com/realms/team/",
      ASSAY_OIDC_CLIENT_ID: "assay",
      ASSAY_OIDC_CLIENT_SECRET: "s3cret",
      ASSAY_BASE_URL: "https://assay.example.com",
    };
    expect(readOidcConfig(full)).toMatchObject({
      providerId: "oidc",
      discoveryUrl: "https://id.example.com/realms/team/.well-known/openid-configuration",
    });
    expect(() => readOidcConfig({ ...full, ASSAY_OIDC_CLIENT_SECRET: "" })).toThrow(OidcConfigError);
    expect(() => readOidcConfig({ ...full, ASSAY_OIDC_CLIENT_SECRET: "" })).toThrow(
      /ASSAY_OIDC_CLIENT_SECRET is missing/,
    );
    expect(() => readOidcConfig({ ...full, ASSAY_OIDC_ISSUER: "ftp://x" })).toThrow(/ASSAY_OIDC_ISSUER is invalid/);
  });

  it("refuses an http:// issuer beyond this machine, and single sign-on without ASSAY_BASE_URL", () => {
    const full = {
      ASSAY_OIDC_ISSUER: "https://id.example.com",
      ASSAY_OIDC_CLIENT_ID: "assay",
      ASSAY_OIDC_CLIENT_SECRET: "s3cret",
      ASSAY_BASE_URL: "https://assay.example.com",
    };
    expect(() => readOidcConfig({ ...full, ASSAY_OIDC_ISSUER: "http://id.example.com" })).toThrow(OidcConfigError);
    expect(() => readOidcConfig({ ...full, ASSAY_OIDC_ISSUER: "http://id.example.com" })).toThrow(
      /ASSAY_OIDC_ISSUER is http:\/\/id\.example\.com: an OpenID Connect issuer must use https:\/\//,
    );
    for (const loopback of ["http://127.0.0.1:8080", "http://localhost:9000/realms/x", "http://[::1]:8080"])
      expect(readOidcConfig({ ...full, ASSAY_OIDC_ISSUER: loopback })?.issuer).toBe(loopback);
    expect(() => readOidcConfig({ ...full, ASSAY_BASE_URL: "" })).toThrow(
      /ASSAY_BASE_URL is missing: single sign-on needs/,
    );
    expect(() => readOidcConfig({ ...full, ASSAY_BASE_URL: "assay.example.com" })).toThrow(/ASSAY_BASE_URL is invalid/);
    expect(checkOidcAtStart({ ...full, ASSAY_BASE_URL: "", ASSAY_AUTH_SECRET: SECRET })).toEqual({
      ok: false,
      message: expect.stringContaining("ASSAY_BASE_URL is missing") as unknown as string,
    });
    // Without a secret nobody signs in, so nothing to refuse.
    expect(checkOidcAtStart({ ...full, ASSAY_BASE_URL: "" })).toEqual({ ok: true });
  });
});
