import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserAccount } from "@/lib/auth/createUserAccount";
import { SIGN_IN_FAILURE_LIMIT } from "@/lib/auth/signInThrottle";
import { createTempDb } from "../support/tempDb";
import { startAuthServer } from "./authKit";

// Better Auth's own limit counts per client address, and with no trusted
// proxy it takes the address from X-Forwarded-For, which a client writes
// itself: a fresh forged address per guess is a fresh bucket. The per-account
// throttle counts failures per email, whatever the address.
const RITA = { email: "rita@example.com", name: "Rita", password: "runner password 1234" };
const OTTO = { email: "otto@example.com", name: "Otto", password: "other password 1234" };

let temp: Awaited<ReturnType<typeof createTempDb>>;
let server: Awaited<ReturnType<typeof startAuthServer>>;
let forged = 0;

beforeAll(async () => {
  temp = await createTempDb();
  // Better Auth's per-address limit on, as in production: the forged addresses get past it.
  server = await startAuthServer(temp.db, { rateLimit: true });
  for (const user of [RITA, OTTO]) await createUserAccount(server.auth, temp.db, { ...user, role: "runner" });
});

afterAll(async () => {
  await server?.close();
  await temp?.cleanup();
});

/** A sign-in from a new forged client address each time. */
function signIn(baseURL: string, email: string, password: string): Promise<Response> {
  forged += 1;
  return fetch(`${baseURL}/api/auth/sign-in/email`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      origin: baseURL,
      "x-forwarded-for": `198.51.${Math.floor(forged / 250)}.${forged % 250}`,
    },
    body: JSON.stringify({ email, password }),
  });
}

describe("per-account sign-in throttle", () => {
  it("refuses sign-in after 10 failures from 20 forged addresses, even with the right password; other accounts sign in", async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 20; attempt++)
      statuses.push(
        (await signIn(server.baseURL, attempt % 2 ? RITA.email.toUpperCase() : RITA.email, `guess ${attempt} wrong pw`))
          .status,
      );
    expect(statuses.slice(0, SIGN_IN_FAILURE_LIMIT)).toEqual(Array(SIGN_IN_FAILURE_LIMIT).fill(401));
    expect(statuses.slice(SIGN_IN_FAILURE_LIMIT)).toEqual(Array(20 - SIGN_IN_FAILURE_LIMIT).fill(429));

    const right = await signIn(server.baseURL, RITA.email, RITA.password);
    expect(right.status).toBe(429);
    expect(right.headers.getSetCookie().join(";")).not.toContain("session_token");
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
    const body = (await right.json()) as { message: string; code: string };
    expect(body.code).toBe("ACCOUNT_SIGN_IN_PAUSED");
    expect(body.message).toMatch(
      /^Too many failed sign-ins for this account\. Password sign-in for it is paused until \d\d:\d\d UTC \(about 1[45] minutes\); try again then\.$/,
    );

    const other = await signIn(server.baseURL, OTTO.email, OTTO.password);
    expect(other.status, await other.clone().text()).toBe(200);
  });

  it("answers an unknown email the same way, so the refusal tells nothing about accounts", async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++)
      statuses.push((await signIn(server.baseURL, "nobody@example.com", `guess ${attempt} wrong pw`)).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
  });

  it("holds across a restart: the count is in the database", async () => {
    const restarted = await startAuthServer(temp.db, { rateLimit: true });
    try {
      expect((await signIn(restarted.baseURL, RITA.email, RITA.password)).status).toBe(429);
      expect((await signIn(restarted.baseURL, OTTO.email, OTTO.password)).status).toBe(200);
    } finally {
      await restarted.close();
    }
  });
});
