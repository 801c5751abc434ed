import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "better-auth/crypto";
import { changeUserRole } from "@/lib/auth/changeUserRole";
import { createUserAccount, UserExistsError } from "@/lib/auth/createUserAccount";
import { SIGN_UP_CLOSED_MESSAGE } from "@/lib/auth/createAuth";
import { AuthRefusal, authorize, checkAccess, LOCAL_ADMIN, resolveUser } from "@/lib/auth/guard";
import type { Db } from "@/lib/db/client";
import { writeSetting } from "@/lib/db/accounts/settingsQueries";
import { findUserByEmail, readCredentialHash } from "@/lib/db/accounts/userQueries";
import { createTempDb } from "../support/tempDb";
import { cookieFrom, postAuth, runUserCreate, signInOverHttp, startAuthServer, TEST_SECRET } from "./authKit";

const ADMIN = { email: "first.admin@example.com", password: "correct horse battery staple" };
const VIEWER = { email: "viewer@example.com", password: "viewer password 1234" };

let temp: Awaited<ReturnType<typeof createTempDb>>;
let db: Db;
let server: Awaited<ReturnType<typeof startAuthServer>>;
let cli: Awaited<ReturnType<typeof runUserCreate>>;

beforeAll(async () => {
  temp = await createTempDb();
  db = temp.db;
  server = await startAuthServer(db);
  // The first admin, made the way docs/security.md says: the CLI, as its own process, password on stdin.
  cli = await runUserCreate(
    ["--admin", ADMIN.email.toUpperCase(), "--password-stdin"],
    { DATABASE_URL: temp.url, ASSAY_AUTH_SECRET: TEST_SECRET },
    `${ADMIN.password}\n`,
  );
  await createUserAccount(server.auth, db, { ...VIEWER, name: "Vera Viewer", role: "viewer" });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await temp?.cleanup();
});

describe("the first admin, from the CLI", () => {
  it("is created with the admin role and never echoes the password", async () => {
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toContain(`Created admin ${ADMIN.email}`);
    expect(cli.stdout + cli.stderr).not.toContain(ADMIN.password);
    // It ends once done: on PostgreSQL it once kept its idle connections, and the process, for their 30 s timeout.
    expect(cli.lingeredMs).toBeLessThan(10_000);
    expect(await findUserByEmail(db, ADMIN.email)).toMatchObject({ role: "admin" });
    // The CLI's admin vouches for the email: what lets this account sign in through OpenID Connect later.
    expect(await db.user.findUnique({ where: { email: ADMIN.email }, select: { emailVerified: true } })).toEqual({
      emailVerified: true,
    });
  });

  it("refuses an email that already has an account", async () => {
    const again = await runUserCreate(
      ["--runner", ADMIN.email, "--password-stdin"],
      { DATABASE_URL: temp.url, ASSAY_AUTH_SECRET: TEST_SECRET },
      "another password 123\n",
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already exists");
    expect(await findUserByEmail(db, ADMIN.email)).toMatchObject({ role: "admin" });
    await expect(
      createUserAccount(server.auth, db, {
        email: VIEWER.email,
        name: "x",
        password: "long enough password",
        role: "admin",
      }),
    ).rejects.toThrow(UserExistsError);
  }, 60_000);

  it("stores a password hash that verifies, never the password", async () => {
    const user = await findUserByEmail(db, ADMIN.email);
    const hash = await readCredentialHash(db, user!.id);
    expect(hash).toBeTruthy();
    expect(hash).not.toContain(ADMIN.password);
    expect(hash).toMatch(/^[0-9a-f]+:[0-9a-f]+$/); // scrypt salt:key
    expect(await verifyPassword({ hash: hash!, password: ADMIN.password })).toBe(true);
    expect(await verifyPassword({ hash: hash!, password: "wrong password here" })).toBe(false);
  });
});

describe("signing in over HTTP", () => {
  it("gives the admin a session that resolves to the admin role", async () => {
    const headers = await signInOverHttp(server.baseURL, ADMIN.email, ADMIN.password);
    const session = await fetch(`${server.baseURL}/api/auth/get-session`, { headers });
    expect(((await session.json()) as { user: { email: string; role: string } }).user).toMatchObject({
      email: ADMIN.email,
      role: "admin",
    });
    const user = await authorize("run.delete", headers, server.context);
    expect(user).toMatchObject({ email: ADMIN.email, role: "admin", local: false });
    expect(await checkAccess("users.manage", headers, server.context)).toMatchObject({ ok: true });
  });

  it("answers a wrong password and an unknown email the same way", async () => {
    const wrongPassword = await postAuth(server.baseURL, "/sign-in/email", {
      email: ADMIN.email,
      password: "nope nope nope",
    });
    const unknownEmail = await postAuth(server.baseURL, "/sign-in/email", {
      email: "nobody@example.com",
      password: "nope nope nope",
    });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(wrongPassword.status);
    expect(await unknownEmail.json()).toEqual(await wrongPassword.json());
    expect(cookieFrom(wrongPassword)).not.toContain("session_token");
  });
});

describe("roles on the server", () => {
  it("refuses a viewer's run.start with 403 and says why, but lets them read and export", async () => {
    const headers = await signInOverHttp(server.baseURL, VIEWER.email, VIEWER.password);
    const refused = await checkAccess("run.start", headers, server.context);
    expect(refused).toEqual({
      ok: false,
      status: 403,
      message: "Your role (viewer) cannot start runs; it needs a runner or an admin.",
    });
    await expect(authorize("run.start", headers, server.context)).rejects.toBeInstanceOf(AuthRefusal);
    for (const action of ["run.delete", "dataset.upload", "users.manage"] as const)
      expect(await checkAccess(action, headers, server.context), action).toMatchObject({ ok: false, status: 403 });
    expect(await checkAccess("export", headers, server.context)).toMatchObject({ ok: true });
  });

  it("refuses a request without a session with 401, and a forged cookie likewise", async () => {
    expect(await checkAccess("export", new Headers(), server.context)).toMatchObject({ ok: false, status: 401 });
    const forged = new Headers({ cookie: "assay.session_token=forged.value" });
    expect(await resolveUser(forged, server.context)).toBeNull();
  });

  it("applies a role change on the user's next request, and keeps the last admin", async () => {
    const headers = await signInOverHttp(server.baseURL, VIEWER.email, VIEWER.password);
    const viewer = await findUserByEmail(db, VIEWER.email);
    expect(await changeUserRole(db, viewer!.id, "runner")).toEqual({ ok: true, message: null });
    expect(await checkAccess("run.start", headers, server.context)).toMatchObject({ ok: true });
    expect(await checkAccess("run.delete", headers, server.context)).toMatchObject({ ok: false, status: 403 });

    const admin = await findUserByEmail(db, ADMIN.email);
    expect(await changeUserRole(db, admin!.id, "viewer")).toMatchObject({ ok: false });
    expect(await findUserByEmail(db, ADMIN.email)).toMatchObject({ role: "admin" });
  });

  it("acts as the local admin for every request addressed to loopback while sign-in is off", async () => {
    const off = { mode: { kind: "off", host: "127.0.0.1" } as const, auth: () => server.auth };
    expect(await authorize("users.manage", new Headers({ host: "127.0.0.1:3000" }), off)).toEqual(LOCAL_ADMIN);
    // Any other name (a rebound domain, a tunnel) is refused: tests/security/loopbackHost.test.ts.
    const misconfigured = {
      mode: { kind: "misconfigured", host: "0.0.0.0", message: "x" } as const,
      auth: () => server.auth,
    };
    const adminHeaders = await signInOverHttp(server.baseURL, ADMIN.email, ADMIN.password);
    expect(await checkAccess("export", adminHeaders, misconfigured)).toMatchObject({ ok: false, status: 503 });
  });
});

describe("sign-up", () => {
  it("is refused while off, with one answer for a free and a taken email, and allowed once an admin turns it on", async () => {
    const fresh = { name: "New Person", email: "new.person@example.com", password: "a brand new password" };
    const closedFresh = await postAuth(server.baseURL, "/sign-up/email", fresh);
    const closedTaken = await postAuth(server.baseURL, "/sign-up/email", { ...fresh, email: ADMIN.email });
    expect(closedFresh.status).toBe(403);
    expect(closedTaken.status).toBe(403);
    const body = (await closedFresh.json()) as { message: string };
    expect(body.message).toBe(SIGN_UP_CLOSED_MESSAGE);
    expect(await closedTaken.json()).toEqual(body);
    expect(await findUserByEmail(db, fresh.email)).toBeNull();

    const admin = await findUserByEmail(db, ADMIN.email);
    await writeSetting(db, "signUpEnabled", true, admin!.id);
    const open = await postAuth(server.baseURL, "/sign-up/email", fresh);
    expect(open.status, await open.clone().text()).toBe(200);
    expect(await findUserByEmail(db, fresh.email)).toMatchObject({ role: "viewer" });
    const headers = new Headers({ cookie: cookieFrom(open) });
    expect(await checkAccess("export", headers, server.context)).toMatchObject({ ok: true });
    expect(await checkAccess("run.start", headers, server.context)).toMatchObject({ ok: false, status: 403 });

    await writeSetting(db, "signUpEnabled", false, admin!.id);
    expect(await db.user.findUnique({ where: { email: fresh.email }, select: { emailVerified: true } })).toEqual({
      emailVerified: false,
    });
    const closedAgain = await postAuth(server.baseURL, "/sign-up/email", { ...fresh, email: "later@example.com" });
    expect(closedAgain.status).toBe(403);
  });
});

describe("allowed email domains for sign-up", () => {
  it("refuses another domain with one answer for a free and a taken email, and accepts a listed one", async () => {
    const admin = await findUserByEmail(db, ADMIN.email);
    await writeSetting(db, "signUpEnabled", true, admin!.id);
    await writeSetting(db, "allowedEmailDomains", ["team.example.org", "example.net"], admin!.id);
    try {
      const outsider = { name: "Out", email: "someone@example.com", password: "an outsider password" };
      const refused = await postAuth(server.baseURL, "/sign-up/email", outsider);
      const refusedTaken = await postAuth(server.baseURL, "/sign-up/email", { ...outsider, email: ADMIN.email });
      expect(refused.status).toBe(403);
      const body = (await refused.json()) as { message: string };
      expect(body.message).toBe(
        "Sign-up here is open only to email addresses at team.example.org, example.net. Ask an admin for an account.",
      );
      expect(await refusedTaken.json()).toEqual(body);
      expect(await findUserByEmail(db, outsider.email)).toBeNull();

      const insider = await postAuth(server.baseURL, "/sign-up/email", {
        ...outsider,
        email: "Someone@Team.Example.org",
      });
      expect(insider.status, await insider.clone().text()).toBe(200);
      expect(await findUserByEmail(db, "someone@team.example.org")).toMatchObject({ role: "viewer" });
    } finally {
      await writeSetting(db, "allowedEmailDomains", [], admin!.id);
      await writeSetting(db, "signUpEnabled", false, admin!.id);
    }
  });
});
