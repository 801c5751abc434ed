import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeUserRole } from "@/lib/auth/changeUserRole";
import { createUserAccount } from "@/lib/auth/createUserAccount";
import { LAST_ACTIVE_ADMIN_MESSAGE } from "@/lib/auth/lastAdmin";
import { parseStoredRole } from "@/lib/auth/roles";
import type { Db } from "@/lib/db/client";
import { findUserByEmail } from "@/lib/db/accounts/userQueries";
import { createTempDb } from "../support/tempDb";
import { postAuth, signInOverHttp, startAuthServer } from "./authKit";

// The only admin must not be able to leave the server without an active admin
// (role admin, not banned) through Better Auth's admin API, nor through
// Assay's own role change, nor by two admins demoting each other at once.
const ADA = { email: "ada@example.com", password: "ada admin password 1", name: "Ada" };
const BEN = { email: "ben@example.com", password: "ben admin password 1", name: "Ben" };
const VERA = { email: "vera@example.com", password: "vera viewer password", name: "Vera" };

let temp: Awaited<ReturnType<typeof createTempDb>>;
let db: Db;
let server: Awaited<ReturnType<typeof startAuthServer>>;
let adaCookie = "";
const ids: Record<string, string> = {};

beforeAll(async () => {
  temp = await createTempDb();
  db = temp.db;
  server = await startAuthServer(db);
  for (const [user, role] of [
    [ADA, "admin"],
    [BEN, "viewer"],
    [VERA, "viewer"],
  ] as const)
    ids[user.email] = (await createUserAccount(server.auth, db, { ...user, role })).id;
  adaCookie = (await signInOverHttp(server.baseURL, ADA.email, ADA.password)).get("cookie") ?? "";
});

afterAll(async () => {
  await server?.close();
  await temp?.cleanup();
});

async function activeAdmins(): Promise<string[]> {
  const users = await db.user.findMany({ select: { email: true, role: true, banned: true } });
  return users
    .filter((user) => parseStoredRole(user.role) === "admin" && !user.banned)
    .map((user) => user.email)
    .sort();
}

async function expectRefused(response: Response, status = 400): Promise<void> {
  expect(response.status, await response.clone().text()).toBe(status);
}

describe("the only admin, through Better Auth's admin API over HTTP", () => {
  it("cannot demote themselves with set-role or update-user", async () => {
    const setRole = await postAuth(
      server.baseURL,
      "/admin/set-role",
      { userId: ids[ADA.email], role: "viewer" },
      adaCookie,
    );
    await expectRefused(setRole);
    expect(((await setRole.json()) as { message: string }).message).toBe(LAST_ACTIVE_ADMIN_MESSAGE);
    await expectRefused(
      await postAuth(
        server.baseURL,
        "/admin/update-user",
        { userId: ids[ADA.email], data: { role: "runner" } },
        adaCookie,
      ),
    );
    expect(await activeAdmins()).toEqual([ADA.email]);
  });

  it("cannot ban or remove themselves", async () => {
    await expectRefused(await postAuth(server.baseURL, "/admin/ban-user", { userId: ids[ADA.email] }, adaCookie));
    await expectRefused(
      await postAuth(
        server.baseURL,
        "/admin/update-user",
        { userId: ids[ADA.email], data: { banned: true } },
        adaCookie,
      ),
    );
    await expectRefused(await postAuth(server.baseURL, "/admin/remove-user", { userId: ids[ADA.email] }, adaCookie));
    expect(await activeAdmins()).toEqual([ADA.email]);
    // Still signed in and still an admin.
    expect(await server.auth.api.getSession({ headers: new Headers({ cookie: adaCookie }) })).toMatchObject({
      user: { email: ADA.email, role: "admin" },
    });
  });

  it("cannot remove the last admin through the database either", async () => {
    await expect(db.user.delete({ where: { id: ids[ADA.email] } })).rejects.toThrow();
    expect(await changeUserRole(db, ids[ADA.email]!, "viewer")).toEqual({
      ok: false,
      message: `${ADA.email} is the only active admin; make someone else admin first.`,
    });
    expect(await activeAdmins()).toEqual([ADA.email]);
  });

  it("cannot impersonate anyone: the admin role has no impersonation", async () => {
    const response = await postAuth(server.baseURL, "/admin/impersonate-user", { userId: ids[VERA.email] }, adaCookie);
    await expectRefused(response, 403);
    expect(response.headers.getSetCookie().join(";")).not.toContain("session_token");
  });
});

describe("with two admins", () => {
  it("one may demote the other, and a banned admin does not count as active", async () => {
    await postAuth(server.baseURL, "/admin/set-role", { userId: ids[BEN.email], role: "admin" }, adaCookie);
    expect(await activeAdmins()).toEqual([ADA.email, BEN.email]);
    const demote = await postAuth(
      server.baseURL,
      "/admin/set-role",
      { userId: ids[BEN.email], role: "runner" },
      adaCookie,
    );
    expect(demote.status, await demote.clone().text()).toBe(200);
    expect(await activeAdmins()).toEqual([ADA.email]);

    // Ben admin again but banned: Ada is still the only active admin.
    expect(await changeUserRole(db, ids[BEN.email]!, "admin")).toEqual({ ok: true, message: null });
    expect((await postAuth(server.baseURL, "/admin/ban-user", { userId: ids[BEN.email] }, adaCookie)).status).toBe(200);
    await expectRefused(
      await postAuth(server.baseURL, "/admin/set-role", { userId: ids[ADA.email], role: "viewer" }, adaCookie),
    );
    expect((await postAuth(server.baseURL, "/admin/unban-user", { userId: ids[BEN.email] }, adaCookie)).status).toBe(
      200,
    );
    expect(await activeAdmins()).toEqual([ADA.email, BEN.email]);
  });

  it("demoting each other at the same moment over HTTP leaves one of them admin", async () => {
    const benCookie = (await signInOverHttp(server.baseURL, BEN.email, BEN.password)).get("cookie") ?? "";
    const answers = await Promise.all([
      postAuth(server.baseURL, "/admin/set-role", { userId: ids[BEN.email], role: "viewer" }, adaCookie),
      postAuth(server.baseURL, "/admin/set-role", { userId: ids[ADA.email], role: "viewer" }, benCookie),
    ]);
    // The later one is refused: by the database (400), or, when the first change was already made, because its
    // sender is no longer an admin (403).
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses[0]).toBe(200);
    expect([400, 403]).toContain(statuses[1]);
    expect(await activeAdmins()).toHaveLength(1);
  });

  it("demoting each other at the same moment through Assay's own action leaves one of them admin", async () => {
    const [remaining] = await activeAdmins();
    const other = remaining === ADA.email ? BEN.email : ADA.email;
    expect(await changeUserRole(db, ids[other]!, "admin")).toEqual({ ok: true, message: null });
    expect(await activeAdmins()).toEqual([ADA.email, BEN.email]);
    const results = await Promise.all([
      changeUserRole(db, ids[ADA.email]!, "viewer"),
      changeUserRole(db, ids[BEN.email]!, "runner"),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(await activeAdmins()).toHaveLength(1);
    expect(await findUserByEmail(db, VERA.email)).toMatchObject({ role: "viewer" });
  });
});

describe("one password policy", () => {
  it("refuses a password under 12 characters through the admin API's create-user", async () => {
    const short = await postAuth(
      server.baseURL,
      "/admin/create-user",
      { email: "short@example.com", name: "Short", password: "elevenchars", role: "viewer" },
      await adminCookie(),
    );
    await expectRefused(short);
    expect(((await short.json()) as { message: string }).message).toBe("The password needs at least 12 characters.");
    expect(await findUserByEmail(db, "short@example.com")).toBeNull();
    const fine = await postAuth(
      server.baseURL,
      "/admin/create-user",
      { email: "long@example.com", name: "Long", password: "twelve chars", role: "viewer" },
      await adminCookie(),
    );
    expect(fine.status, await fine.clone().text()).toBe(200);
    const long = await findUserByEmail(db, "long@example.com");
    await expectRefused(
      await postAuth(
        server.baseURL,
        "/admin/set-user-password",
        { userId: long!.id, newPassword: "too short" },
        await adminCookie(),
      ),
    );
  });
});

/** A session of whichever admin is still active. */
async function adminCookie(): Promise<string> {
  const [email] = await activeAdmins();
  const user = email === ADA.email ? ADA : BEN;
  return (await signInOverHttp(server.baseURL, user.email, user.password)).get("cookie") ?? "";
}
