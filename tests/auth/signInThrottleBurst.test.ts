import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserAccount } from "@/lib/auth/createUserAccount";
import { SIGN_IN_FAILURE_LIMIT } from "@/lib/auth/signInThrottle";
import { createTempDb } from "../support/tempDb";
import { postAuth, startAuthServer } from "./authKit";

// The per-account throttle under a burst: parallel guesses for one email must not get more password checks
// than the limit. Counting after the check (read the count, check, then write it) let 150 parallel wrong
// passwords through 43 checks, each having read the count before any was written. A 401 is an attempt whose
// password Better Auth checked (or hashed, for an unknown email); a 429 is one refused before any check.
const BURST = 150;
const RITA = { email: "rita@example.com", name: "Rita", password: "runner password 1234" };
const OTTO = { email: "otto@example.com", name: "Otto", password: "other password 1234" };
const PIA = { email: "pia@example.com", name: "Pia", password: "pia password 123456" };

let temp: Awaited<ReturnType<typeof createTempDb>>;
let server: Awaited<ReturnType<typeof startAuthServer>>;

beforeAll(async () => {
  temp = await createTempDb();
  // Better Auth's per-address limit off: this is about the per-account one, whatever the addresses.
  server = await startAuthServer(temp.db);
  for (const user of [RITA, OTTO, PIA]) await createUserAccount(server.auth, temp.db, { ...user, role: "runner" });
});

afterAll(async () => {
  await server?.close();
  await temp?.cleanup();
});

const signIn = (email: string, password: string) => postAuth(server.baseURL, "/sign-in/email", { email, password });

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe("per-account sign-in throttle under a burst", () => {
  it(`lets ${SIGN_IN_FAILURE_LIMIT} of ${BURST} parallel wrong passwords reach the password check, and refuses the rest`, async () => {
    const responses = await Promise.all(
      Array.from({ length: BURST }, (_, i) => signIn(RITA.email, `wrong guess number ${i}`)),
    );
    expect(tally(responses.map((response) => response.status))).toEqual({
      401: SIGN_IN_FAILURE_LIMIT,
      429: BURST - SIGN_IN_FAILURE_LIMIT,
    });
    // Afterwards the account is paused, the right password included; another account is not.
    expect((await signIn(RITA.email, RITA.password)).status).toBe(429);
    expect((await signIn(OTTO.email, OTTO.password)).status).toBe(200);
  });

  it("does the same for an email without an account", async () => {
    const responses = await Promise.all(
      Array.from({ length: BURST }, (_, i) => signIn("nobody@example.com", `wrong guess number ${i}`)),
    );
    expect(tally(responses.map((response) => response.status))).toEqual({
      401: SIGN_IN_FAILURE_LIMIT,
      429: BURST - SIGN_IN_FAILURE_LIMIT,
    });
  });

  it("counts a successful sign-in as no failure, and does not wipe the failures before it", async () => {
    for (let attempt = 0; attempt < SIGN_IN_FAILURE_LIMIT - 1; attempt++)
      expect((await signIn(PIA.email, `wrong guess number ${attempt}`)).status).toBe(401);
    // Three right passwords at once: each is counted while its password is checked, then taken back.
    const right = await Promise.all([1, 2, 3].map(() => signIn(PIA.email, PIA.password)));
    expect(right.map((response) => response.status).filter((status) => status === 200).length).toBeGreaterThan(0);
    expect((await signIn(PIA.email, PIA.password)).status).toBe(200);
    // The tenth failure is still allowed a check, and then the account is paused.
    expect((await signIn(PIA.email, "the tenth wrong guess")).status).toBe(401);
    expect((await signIn(PIA.email, PIA.password)).status).toBe(429);
  });
});
