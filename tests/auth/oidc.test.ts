import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserAccount } from "@/lib/auth/createUserAccount";
import { checkAccess } from "@/lib/auth/guard";
import { readOidcConfig } from "@/lib/auth/oidcConfig";
import type { Db } from "@/lib/db/client";
import { writeSetting } from "@/lib/db/accounts/settingsQueries";
import { findUserByEmail } from "@/lib/db/accounts/userQueries";
import { createTempDb } from "../support/tempDb";
import { cookieFrom, postAuth, startAuthServer } from "./authKit";
import { startFakeOidcProvider } from "./fakeOidcProvider";

let temp: Awaited<ReturnType<typeof createTempDb>>;
let db: Db;
let idp: Awaited<ReturnType<typeof startFakeOidcProvider>>;
let server: Awaited<ReturnType<typeof startAuthServer>>;

beforeAll(async () => {
  temp = await createTempDb();
  db = temp.db;
  idp = await startFakeOidcProvider("assay-client", "assay-client-secret");
  // The provider on loopback may use http; the base URL is the auth server's own.
  const oidc = (baseURL: string) =>
    readOidcConfig({
      ASSAY_OIDC_ISSUER: idp.issuer,
      ASSAY_OIDC_CLIENT_ID: "assay-client",
      ASSAY_OIDC_CLIENT_SECRET: "assay-client-secret",
      ASSAY_OIDC_NAME: "Test IdP",
      ASSAY_BASE_URL: baseURL,
    });
  server = await startAuthServer(db, { oidc });
});

afterAll(async () => {
  await server?.close();
  await idp?.close();
  await temp?.cleanup();
});

/** Runs the browser's side of the flow: start at Assay, visit the provider, come back to the callback. */
async function signInThroughProvider(): Promise<{ landedOn: URL; cookie: string }> {
  const start = await postAuth(server.baseURL, "/sign-in/social", {
    provider: "oidc",
    callbackURL: "/datasets",
    errorCallbackURL: "/signin",
  });
  expect(start.status, await start.clone().text()).toBe(200);
  const { url } = (await start.json()) as { url: string };
  const authorizeUrl = new URL(url);
  expect(authorizeUrl.origin).toBe(idp.issuer);
  expect(authorizeUrl.searchParams.get("code_challenge_method")).toBe("S256");
  const atProvider = await fetch(authorizeUrl, { redirect: "manual" });
  const callback = atProvider.headers.get("location") ?? "";
  expect(callback.startsWith(`${server.baseURL}/api/auth/callback/oidc`)).toBe(true);
  const back = await fetch(callback, { redirect: "manual", headers: { cookie: cookieFrom(start) } });
  expect(back.status).toBe(302);
  return { landedOn: new URL(back.headers.get("location") ?? "", server.baseURL), cookie: cookieFrom(back) };
}

describe("OpenID Connect sign-in (generic provider from discovery)", () => {
  it("does not create an account while sign-up is off", async () => {
    idp.signInAs({ sub: "new-1", email: "newcomer@example.com", name: "New Comer" });
    const { landedOn, cookie } = await signInThroughProvider();
    expect(landedOn.pathname).toBe("/signin");
    expect(landedOn.searchParams.get("error")).toBe("signup_disabled");
    expect(cookie).not.toContain("session_token=");
    expect(await findUserByEmail(db, "newcomer@example.com")).toBeNull();
  });

  it("signs in an account an admin created first (CLI or admin API), keeping its role, while sign-up is off", async () => {
    await createUserAccount(server.auth, db, {
      email: "pat.runner@example.com",
      name: "Pat Runner",
      password: "pat runner password",
      role: "runner",
    });
    idp.signInAs({ sub: "pat-1", email: "Pat.Runner@example.com", name: "Pat at the IdP" });
    const { landedOn, cookie } = await signInThroughProvider();
    expect(landedOn.pathname, landedOn.search).toBe("/datasets");
    expect(await checkAccess("run.start", new Headers({ cookie }), server.context)).toMatchObject({
      ok: true,
      user: { email: "pat.runner@example.com", role: "runner" },
    });
    const pat = await findUserByEmail(db, "pat.runner@example.com");
    const methods = await db.account.findMany({ where: { userId: pat!.id }, select: { providerId: true } });
    expect(methods.map((method) => method.providerId).sort()).toEqual(["credential", "oidc"]);
  });

  it("creates a viewer and signs them in once sign-up is on", async () => {
    await writeSetting(db, "signUpEnabled", true, null);
    idp.signInAs({ sub: "new-2", email: "sso.viewer@example.com", name: "Sso Viewer" });
    const { landedOn, cookie } = await signInThroughProvider();
    expect(landedOn.pathname).toBe("/datasets");
    expect(await findUserByEmail(db, "sso.viewer@example.com")).toMatchObject({ role: "viewer" });
    const headers = new Headers({ cookie });
    expect(await checkAccess("export", headers, server.context)).toMatchObject({
      ok: true,
      user: { email: "sso.viewer@example.com", role: "viewer" },
    });
    expect(await checkAccess("run.start", headers, server.context)).toMatchObject({ ok: false, status: 403 });
    // The confidential client authenticated with its secret and the PKCE verifier.
    const lastTokenRequest = idp.tokenRequests.at(-1);
    expect(lastTokenRequest?.get("code_verifier")).toBeTruthy();
  });

  it("does not link a self-made sign-up account, whose email nobody vouched for", async () => {
    const signUp = await postAuth(server.baseURL, "/sign-up/email", {
      name: "Squatter",
      email: "later.employee@example.com",
      password: "squatter password 1",
    });
    expect(signUp.status, await signUp.clone().text()).toBe(200);
    idp.signInAs({ sub: "later-1", email: "later.employee@example.com", name: "Later Employee" });
    const { landedOn, cookie } = await signInThroughProvider();
    expect(landedOn.pathname).toBe("/signin");
    expect(landedOn.searchParams.get("error")).toBe("account_not_linked");
    expect(cookie).not.toContain("session_token=");
  });

  it("creates an account only for an allowed email domain when the admin lists domains", async () => {
    await writeSetting(db, "allowedEmailDomains", ["example.com"], null);
    try {
      idp.signInAs({ sub: "out-1", email: "outsider@elsewhere.org", name: "Out Sider" });
      const refused = await signInThroughProvider();
      expect(refused.landedOn.pathname).toBe("/signin");
      expect(refused.landedOn.searchParams.get("error")).toBe("signup_domain_not_allowed");
      expect(await findUserByEmail(db, "outsider@elsewhere.org")).toBeNull();

      idp.signInAs({ sub: "in-1", email: "insider@example.com", name: "In Sider" });
      expect((await signInThroughProvider()).landedOn.pathname).toBe("/datasets");
      expect(await findUserByEmail(db, "insider@example.com")).toMatchObject({ role: "viewer" });
    } finally {
      await writeSetting(db, "allowedEmailDomains", [], null);
    }
  });
});
