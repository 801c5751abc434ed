import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserAccount } from "@/lib/auth/createUserAccount";
import { requestOrigins } from "@/lib/auth/requestOrigins";
import { createTempDb } from "../support/tempDb";
import { startAuthServer } from "./authKit";

const USER = { email: "olga@example.com", password: "olga password 1234", name: "Olga", role: "admin" as const };

let temp: Awaited<ReturnType<typeof createTempDb>>;
let server: Awaited<ReturnType<typeof startAuthServer>>;

beforeAll(async () => {
  temp = await createTempDb();
  server = await startAuthServer(temp.db);
  await createUserAccount(server.auth, temp.db, USER);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await temp?.cleanup();
});

function signIn(origin: string): Promise<Response> {
  return fetch(`${server.baseURL}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ email: USER.email, password: USER.password }),
  });
}

describe("Better Auth's Origin check, on under a test runner too", () => {
  it("refuses a sign-in posted from another site, and accepts one from the app's own origin", async () => {
    // Better Auth skips this check whenever NODE_ENV is "test"; createAuth turns it on everywhere.
    const evil = await signIn("https://evil.example");
    expect(evil.status).toBe(403);
    expect(await evil.text()).toContain("INVALID_ORIGIN");
    expect((await signIn(server.baseURL)).status).toBe(200);
  });

  it("trusts, without a base URL, only the origins of the host the request was sent to", () => {
    const request = new Request("http://localhost:3000/api/auth/sign-in/email", {
      headers: { host: "127.0.0.1:3000" },
    });
    expect(requestOrigins(request)).toEqual(["http://127.0.0.1:3000", "https://127.0.0.1:3000"]);
    expect(requestOrigins(undefined)).toEqual([]);
    const forged = new Request("http://x/", { headers: { host: "evil.example/ x" } });
    expect(requestOrigins(forged)).toEqual([]);
  });
});
