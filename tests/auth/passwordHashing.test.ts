// How a password is stored: Better Auth's scrypt when nothing else is given (the app, the CLI, the browser
// tests), and the tests' cheaper hash only where a test passes it; a password hashed either way signs in
// through the tests' auth server, as the accounts made by the user:create CLI do in tests/auth/apiKeys.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth } from "@/lib/auth/createAuth";
import { createUserAccount } from "@/lib/auth/createUserAccount";
import { createTempDb } from "../support/tempDb";
import { postAuth, startAuthServer, TEST_SECRET } from "./authKit";

let temp: Awaited<ReturnType<typeof createTempDb>>;
let server: Awaited<ReturnType<typeof startAuthServer>>;

beforeAll(async () => {
  temp = await createTempDb();
  server = await startAuthServer(temp.db);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await temp?.cleanup();
});

async function storedHash(userId: string): Promise<string> {
  const account = await temp.db.account.findFirstOrThrow({ where: { userId, providerId: "credential" } });
  return account.password ?? "";
}

describe("password hashing", () => {
  it("is Better Auth's scrypt (salt:key in hex) unless a hasher is given, and such a password signs in", async () => {
    const appAuth = createAuth({ db: temp.db, secret: TEST_SECRET, baseURL: "http://127.0.0.1:1", rateLimit: false });
    const user = await createUserAccount(appAuth, temp.db, {
      email: "real@example.com",
      name: "Real",
      password: "a real scrypt password",
      role: "viewer",
    });
    expect(await storedHash(user.id)).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    const signIn = await postAuth(server.baseURL, "/sign-in/email", {
      email: "real@example.com",
      password: "a real scrypt password",
    });
    expect(signIn.status).toBe(200);
    const wrong = await postAuth(server.baseURL, "/sign-in/email", {
      email: "real@example.com",
      password: "not the real password",
    });
    expect(wrong.status).toBe(401);
  });

  it("is the tests' cheaper hash on the tests' auth server, and is checked as a password still", async () => {
    const user = await createUserAccount(server.auth, temp.db, {
      email: "cheap@example.com",
      name: "Cheap",
      password: "a cheaper test password",
      role: "viewer",
    });
    expect(await storedHash(user.id)).toMatch(/^test-scrypt-1024:[0-9a-f]{32}:[0-9a-f]{128}$/);
    const body = { email: "cheap@example.com", password: "a cheaper test password" };
    expect((await postAuth(server.baseURL, "/sign-in/email", body)).status).toBe(200);
    const wrong = { ...body, password: "a cheaper test passworD" };
    expect((await postAuth(server.baseURL, "/sign-in/email", wrong)).status).toBe(401);
  });
});
