// An admin's account changes from the users page, on a real SQLite file with
// Better Auth signing in over HTTP: a password reset works under the password
// policy and ends the user's sessions; a removal takes the user's sessions and
// sign-ins with it once the admin confirmed that user's email; nobody removes
// their own account, and the last active admin is refused with nothing
// changed, not even their password (Better Auth's own deleteUser removes
// sessions and passwords in writes before the one the database refuses). A
// user who signs in through single sign-on gets no password by a reset.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserAccount } from "@/lib/auth/createUserAccount";
import { removeUserAccount } from "@/lib/auth/removeUserAccount";
import { resetAccountPassword } from "@/lib/auth/resetAccountPassword";
import type { Db } from "@/lib/db/client";
import { readCredentialHash } from "@/lib/db/accounts/userQueries";
import { createTempDb } from "../support/tempDb";
import { postAuth, signInOverHttp, startAuthServer } from "./authKit";

const ADA = { email: "ada@example.com", password: "ada admin password 1", name: "Ada", role: "admin" } as const;
const VERA = { email: "vera@example.com", password: "vera viewer password", name: "Vera", role: "viewer" } as const;
const OLGA = { email: "olga@example.com", password: "olga viewer password", name: "Olga", role: "viewer" } as const;

let temp: Awaited<ReturnType<typeof createTempDb>>;
let db: Db;
let server: Awaited<ReturnType<typeof startAuthServer>>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  temp = await createTempDb();
  db = temp.db;
  server = await startAuthServer(db);
  for (const user of [ADA, VERA, OLGA]) ids[user.email] = (await createUserAccount(server.auth, db, user)).id;
});

afterAll(async () => {
  await server?.close();
  await temp?.cleanup();
});

async function signInStatus(email: string, password: string): Promise<number> {
  return (await postAuth(server.baseURL, "/sign-in/email", { email, password })).status;
}

async function sessionsOf(userId: string): Promise<number> {
  return db.session.count({ where: { userId } });
}

describe("resetting a password", () => {
  it("refuses a password the policy refuses, changing nothing", async () => {
    const before = await readCredentialHash(db, ids[VERA.email]);
    const result = await resetAccountPassword(server.auth, db, ids[VERA.email], "too short");
    expect(result).toEqual({ ok: false, message: "The password needs at least 12 characters." });
    expect(await readCredentialHash(db, ids[VERA.email])).toBe(before);
  });

  it("sets the new password, which signs in, and ends the user's sessions; the old one no longer works", async () => {
    await signInOverHttp(server.baseURL, VERA.email, VERA.password);
    await signInOverHttp(server.baseURL, VERA.email, VERA.password);
    expect(await sessionsOf(ids[VERA.email])).toBe(2);
    const result = await resetAccountPassword(server.auth, db, ids[VERA.email], "a brand new password");
    expect(result).toEqual({
      ok: true,
      message: "Password set for vera@example.com; 2 open sessions ended. Give them the new password.",
    });
    expect(await sessionsOf(ids[VERA.email])).toBe(0);
    expect(await readCredentialHash(db, ids[VERA.email])).not.toContain("a brand new password");
    expect(await signInStatus(VERA.email, VERA.password)).toBe(401);
    expect(await signInStatus(VERA.email, "a brand new password")).toBe(200);
  });

  it("refuses a user who signs in only through single sign-on, giving them no password", async () => {
    // As a first sign-in through the identity provider leaves them: an OIDC account and no password.
    await db.account.deleteMany({ where: { userId: ids[OLGA.email], providerId: "credential" } });
    await db.account.create({
      data: { id: "olga-oidc", userId: ids[OLGA.email], accountId: "idp-subject-olga", providerId: "oidc" },
    });
    const result = await resetAccountPassword(server.auth, db, ids[OLGA.email], "olga's first password");
    expect(result).toEqual({
      ok: false,
      message:
        "olga@example.com signs in through single sign-on; manage it at your identity provider. No password was set.",
    });
    expect(await readCredentialHash(db, ids[OLGA.email])).toBeNull();
    expect(await signInStatus(OLGA.email, "olga's first password")).toBe(401);
  });

  it("refuses a user left with no way to sign in at all, giving them no password either", async () => {
    await db.account.deleteMany({ where: { userId: ids[OLGA.email] } });
    const result = await resetAccountPassword(server.auth, db, ids[OLGA.email], "olga's first password");
    expect(result).toEqual({
      ok: false,
      message: "olga@example.com has no password to reset; remove the account and add it again with a password.",
    });
    expect(await db.account.count({ where: { userId: ids[OLGA.email] } })).toBe(0);
  });
});

describe("removing a user", () => {
  it("refuses without the admin's confirmation of this user's email, changing nothing", async () => {
    for (const confirmedEmail of ["", "remove", OLGA.email]) {
      const result = await removeUserAccount(db, {
        userId: ids[VERA.email],
        confirmedEmail,
        removedBy: ids[ADA.email],
      });
      expect(result).toEqual({ ok: false, message: 'Tick "Yes, remove vera@example.com" first; nothing was removed.' });
    }
    expect(await db.user.count({ where: { id: ids[VERA.email] } })).toBe(1);
    expect(await signInStatus(VERA.email, "a brand new password")).toBe(200);
  });

  it("removes the user with their sessions and sign-ins; they can no longer sign in", async () => {
    await signInOverHttp(server.baseURL, VERA.email, "a brand new password");
    const removal = { userId: ids[VERA.email], confirmedEmail: "Vera@Example.com", removedBy: ids[ADA.email] };
    expect(await removeUserAccount(db, removal)).toEqual({ ok: true, message: "Removed vera@example.com." });
    expect(await db.user.count({ where: { id: ids[VERA.email] } })).toBe(0);
    expect(await db.account.count({ where: { userId: ids[VERA.email] } })).toBe(0);
    expect(await sessionsOf(ids[VERA.email])).toBe(0);
    expect(await signInStatus(VERA.email, "a brand new password")).toBe(401);
    expect(await removeUserAccount(db, removal)).toEqual({ ok: false, message: "This user no longer exists." });
  });

  it("refuses an admin removing their own account, even with another admin left", async () => {
    const bob = await createUserAccount(server.auth, db, {
      email: "bob@example.com",
      password: "bob admin password 1",
      name: "Bob",
      role: "admin",
    });
    const result = await removeUserAccount(db, { userId: bob.id, confirmedEmail: bob.email, removedBy: bob.id });
    expect(result).toEqual({ ok: false, message: "You cannot remove your own account; ask another admin." });
    expect(await db.user.count({ where: { id: bob.id } })).toBe(1);
    // Another admin may: Bob goes, Ada stays the only admin.
    const byAda = await removeUserAccount(db, { userId: bob.id, confirmedEmail: bob.email, removedBy: ids[ADA.email] });
    expect(byAda).toEqual({ ok: true, message: "Removed bob@example.com." });
  });

  it("refuses the last active admin, who keeps their password and sessions", async () => {
    await signInOverHttp(server.baseURL, ADA.email, ADA.password);
    const sessions = await sessionsOf(ids[ADA.email]);
    const hash = await readCredentialHash(db, ids[ADA.email]);
    // The local admin (sign-in off) has no account of their own, so only the last-admin rule stands in the way.
    const result = await removeUserAccount(db, { userId: ids[ADA.email], confirmedEmail: ADA.email, removedBy: null });
    expect(result).toEqual({
      ok: false,
      message: "ada@example.com is the only active admin and cannot be removed; make someone else admin first.",
    });
    expect(await db.user.count({ where: { id: ids[ADA.email] } })).toBe(1);
    expect(await readCredentialHash(db, ids[ADA.email])).toBe(hash);
    expect(await sessionsOf(ids[ADA.email])).toBe(sessions);
    expect(await signInStatus(ADA.email, ADA.password)).toBe(200);
  });
});
