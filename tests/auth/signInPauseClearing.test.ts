// Anyone who knows an email can pause its password sign-in for 15 minutes (ten wrong guesses, from any
// address). What opens it again before then: an admin's clear from the users page, an admin's password reset
// (the users page's, and Better Auth's admin set-user-password), and the user's own change-password. Each
// leaves other paused accounts paused. Better Auth signs in over HTTP on the test store (SQLite or PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserAccount } from "@/lib/auth/createUserAccount";
import { resetAccountPassword } from "@/lib/auth/resetAccountPassword";
import { clearAccountSignInPause, SIGN_IN_FAILURE_LIMIT, signInPausesOf } from "@/lib/auth/signInThrottle";
import type { Db } from "@/lib/db/client";
import { createTempDb } from "../support/tempDb";
import { postAuth, signInOverHttp, startAuthServer } from "./authKit";

const ADA = { email: "ada@example.com", password: "ada admin password 1", name: "Ada", role: "admin" } as const;
const VERA = { email: "vera@example.com", password: "vera viewer password", name: "Vera", role: "viewer" } as const;
const OLGA = { email: "olga@example.com", password: "olga viewer password", name: "Olga", role: "viewer" } as const;
const PIA = { email: "pia@example.com", password: "pia runner password", name: "Pia", role: "runner" } as const;
const URS = { email: "urs@example.com", password: "urs runner password", name: "Urs", role: "runner" } as const;
const QUIN = { email: "quin@example.com", password: "quin viewer password", name: "Quin", role: "viewer" } as const;

let temp: Awaited<ReturnType<typeof createTempDb>>;
let db: Db;
let server: Awaited<ReturnType<typeof startAuthServer>>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  temp = await createTempDb();
  db = temp.db;
  server = await startAuthServer(db);
  for (const user of [ADA, VERA, OLGA, PIA, URS, QUIN])
    ids[user.email] = (await createUserAccount(server.auth, db, user)).id;
});

afterAll(async () => {
  await server?.close();
  await temp?.cleanup();
});

async function signInStatus(email: string, password: string): Promise<number> {
  return (await postAuth(server.baseURL, "/sign-in/email", { email, password })).status;
}

/** What a stranger who knows the email can do: ten wrong guesses, and the account's password sign-in is paused. */
async function pause(email: string): Promise<void> {
  for (let guess = 0; guess < SIGN_IN_FAILURE_LIMIT; guess++)
    expect(await signInStatus(email, `a stranger's guess ${guess}`)).toBe(401);
  expect(await signInStatus(email, "one more guess here")).toBe(429);
}

// Each wrong guess is a real password hash (scrypt): some 35 of them in the first test, which took 25 s on a
// machine running other suites beside it. A minute leaves room for that.
describe("opening a paused password sign-in before its window ends", { timeout: 60_000 }, () => {
  it("an admin clears it: the right password signs in again, and another paused account stays paused", async () => {
    await pause(VERA.email);
    await pause(OLGA.email);
    const paused = await signInPausesOf(db, [VERA.email, OLGA.email, ADA.email]);
    expect([...paused.keys()].sort()).toEqual([OLGA.email, VERA.email]);
    expect(paused.get(VERA.email)!.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);

    expect(await clearAccountSignInPause(db, ids[VERA.email])).toEqual({
      ok: true,
      message: "Password sign-in for vera@example.com is open again; earlier failed sign-ins are forgotten.",
    });
    expect(await signInStatus(VERA.email, VERA.password)).toBe(200);
    expect(await signInStatus(OLGA.email, OLGA.password)).toBe(429);
    expect([...(await signInPausesOf(db, [VERA.email, OLGA.email])).keys()]).toEqual([OLGA.email]);
    // Cleared, the count starts again from nothing: ten more guesses before the next pause.
    await pause(VERA.email);

    expect(await clearAccountSignInPause(db, ids[ADA.email])).toEqual({
      ok: true,
      message: "Password sign-in for ada@example.com was not paused.",
    });
    expect(await clearAccountSignInPause(db, "no-such-user")).toEqual({
      ok: false,
      message: "This user no longer exists.",
    });
  });

  it("an admin's password reset from the users page opens it for the new password", async () => {
    await pause(PIA.email);
    const reset = await resetAccountPassword(server.auth, db, ids[PIA.email], "pia's new password here");
    expect(reset.ok).toBe(true);
    expect(await signInStatus(PIA.email, "pia's new password here")).toBe(200);
    expect(await signInStatus(OLGA.email, OLGA.password)).toBe(429);
  });

  it("Better Auth's admin set-user-password opens it too", async () => {
    const admin = await signInOverHttp(server.baseURL, ADA.email, ADA.password);
    await pause(URS.email);
    const set = await postAuth(
      server.baseURL,
      "/admin/set-user-password",
      { userId: ids[URS.email], newPassword: "urs's new password here" },
      admin.get("cookie") ?? "",
    );
    expect(set.status, await set.clone().text()).toBe(200);
    expect(await signInStatus(URS.email, "urs's new password here")).toBe(200);
    expect(await signInStatus(OLGA.email, OLGA.password)).toBe(429);
  });

  it("the user's own change-password, from a session they already had, opens it", async () => {
    const session = (await signInOverHttp(server.baseURL, QUIN.email, QUIN.password)).get("cookie") ?? "";
    await pause(QUIN.email);
    const changed = await postAuth(
      server.baseURL,
      "/change-password",
      { currentPassword: QUIN.password, newPassword: "quin's new password", revokeOtherSessions: false },
      session,
    );
    expect(changed.status, await changed.clone().text()).toBe(200);
    expect(await signInStatus(QUIN.email, "quin's new password")).toBe(200);
    expect(await signInStatus(OLGA.email, OLGA.password)).toBe(429);
  });
});
