import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserAccount } from "@/lib/auth/createUserAccount";
import { createTempDb } from "../support/tempDb";
import { postAuth, startAuthServer } from "./authKit";

// The sign-in form posts to Better Auth's endpoint (not a server action) so
// that this limit applies to password guessing.
let temp: Awaited<ReturnType<typeof createTempDb>>;
let server: Awaited<ReturnType<typeof startAuthServer>>;

beforeAll(async () => {
  temp = await createTempDb();
  server = await startAuthServer(temp.db, { rateLimit: true });
  await createUserAccount(server.auth, temp.db, {
    email: "runner@example.com",
    name: "Runner",
    password: "runner password 1234",
    role: "runner",
  });
});

afterAll(async () => {
  await server?.close();
  await temp?.cleanup();
});

describe("sign-in rate limit", () => {
  it("answers 429 after three attempts in ten seconds, even with the right password", async () => {
    const attempt = (password: string) =>
      postAuth(server.baseURL, "/sign-in/email", { email: "runner@example.com", password });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await attempt(`guess number ${i} here`)).status);
    expect(statuses).toEqual([401, 401, 401]);
    const limited = await attempt("runner password 1234");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("set-cookie") ?? "").not.toContain("session_token");
  });
});
