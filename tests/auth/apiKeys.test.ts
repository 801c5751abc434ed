import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_PREFIX, API_KEY_REQUESTS_PER_MINUTE } from "@/lib/auth/apiKeyPolicy";
import { ApiKeyRefusedError, createApiKey, summaryRole } from "@/lib/auth/apiKeys";
import { changeUserRole } from "@/lib/auth/changeUserRole";
import { createUserAccount } from "@/lib/auth/createUserAccount";
import { checkAccess, refusalResponse } from "@/lib/auth/guard";
import type { Db } from "@/lib/db/client";
import { listApiKeys, revokeApiKey } from "@/lib/db/accounts/apiKeyQueries";
import { createTempDb } from "../support/tempDb";
import { postAuth, runUserKey, signInOverHttp, startAuthServer, TEST_SECRET } from "./authKit";

const RUNNER = { email: "ci.runner@example.com", password: "runner password 1234", name: "Rita Runner" };
const ADMIN = { email: "keys.admin@example.com", password: "admin password 12345", name: "Ada Admin" };

let temp: Awaited<ReturnType<typeof createTempDb>>;
let db: Db;
let server: Awaited<ReturnType<typeof startAuthServer>>;
let runnerId: string;
let adminId: string;

const bearer = (key: string) => new Headers({ authorization: `Bearer ${key}`, host: "127.0.0.1" });

beforeAll(async () => {
  temp = await createTempDb();
  db = temp.db;
  server = await startAuthServer(db);
  runnerId = (await createUserAccount(server.auth, db, { ...RUNNER, role: "runner" })).id;
  adminId = (await createUserAccount(server.auth, db, { ...ADMIN, role: "admin" })).id;
}, 120_000);

afterAll(async () => {
  await server?.close();
  await temp?.cleanup();
});

describe("API keys", () => {
  it("are shown once, stored as a hash, and act as their owner with their own role", async () => {
    const created = await createApiKey(
      server.auth,
      { id: runnerId, role: "runner" },
      { name: "CI on main", role: "runner" },
    );
    expect(created.key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(created.key.length).toBeGreaterThanOrEqual(API_KEY_PREFIX.length + 64);
    // Only a hash is in the store: the raw key appears nowhere in its row.
    const row = await db.apiKey.findUniqueOrThrow({ where: { id: created.id } });
    expect(JSON.stringify(row)).not.toContain(created.key);
    expect(JSON.stringify(row)).not.toContain(created.key.slice(API_KEY_PREFIX.length + 6));
    const [listed] = await listApiKeys(db, runnerId);
    expect(listed).toMatchObject({ id: created.id, name: "CI on main", ownerEmail: RUNNER.email });
    expect(listed.start).toBe(created.key.slice(0, API_KEY_PREFIX.length + 6));
    expect(summaryRole(listed)).toBe("runner");

    const access = await checkAccess("run.start", bearer(created.key), server.context, "sessionOrKey");
    expect(access).toMatchObject({ ok: true, user: { id: runnerId, role: "runner", apiKey: { id: created.id } } });
    // Its last use is recorded.
    expect((await listApiKeys(db, runnerId))[0].lastUsedAt).toBeInstanceOf(Date);
  });

  it("never act above their role, nor above their owner's current role", async () => {
    const viewerKey = await createApiKey(
      server.auth,
      { id: adminId, role: "admin" },
      { name: "dashboards", role: "viewer" },
    );
    expect(await checkAccess("data.read", bearer(viewerKey.key), server.context, "sessionOrKey")).toMatchObject({
      ok: true,
    });
    const refused = await checkAccess("run.start", bearer(viewerKey.key), server.context, "sessionOrKey");
    expect(refused).toMatchObject({ ok: false, status: 403 });
    expect(!refused.ok && refused.message).toBe(
      "This API key's role (viewer) cannot start runs; it needs a runner or an admin.",
    );

    await expect(
      createApiKey(server.auth, { id: runnerId, role: "runner" }, { name: "too strong", role: "admin" }),
    ).rejects.toBeInstanceOf(ApiKeyRefusedError);

    // An admin's admin key, after the admin is demoted to viewer, acts as a viewer.
    const other = await createUserAccount(server.auth, db, {
      email: "demoted@example.com",
      password: "demoted password 123",
      name: "Dee Moted",
      role: "admin",
    });
    const adminKey = await createApiKey(server.auth, { id: other.id, role: "admin" }, { name: "ops", role: "admin" });
    expect(await checkAccess("run.delete", bearer(adminKey.key), server.context, "sessionOrKey")).toMatchObject({
      ok: true,
    });
    await changeUserRole(db, other.id, "viewer");
    expect(await checkAccess("run.delete", bearer(adminKey.key), server.context, "sessionOrKey")).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(await checkAccess("data.read", bearer(adminKey.key), server.context, "sessionOrKey")).toMatchObject({
      ok: true,
      user: { role: "viewer" },
    });
  });

  it("are refused at once when revoked, expired, mistyped or their owner is banned", async () => {
    const key = await createApiKey(
      server.auth,
      { id: runnerId, role: "runner" },
      { name: "to revoke", role: "runner" },
    );
    expect(await checkAccess("data.read", bearer(key.key), server.context, "sessionOrKey")).toMatchObject({ ok: true });
    expect(await revokeApiKey(db, key.id, adminId)).toBe(false); // not the admin's own key, and not asked as an admin
    expect(await revokeApiKey(db, key.id, runnerId)).toBe(true);
    const revoked = await checkAccess("data.read", bearer(key.key), server.context, "sessionOrKey");
    expect(revoked).toMatchObject({
      ok: false,
      status: 401,
      message: "This API key is not valid (revoked or mistyped).",
    });

    const mistyped = await checkAccess(
      "data.read",
      bearer(`${API_KEY_PREFIX}${"x".repeat(64)}`),
      server.context,
      "sessionOrKey",
    );
    expect(mistyped).toMatchObject({ ok: false, status: 401 });

    const expiring = await createApiKey(
      server.auth,
      { id: runnerId, role: "runner" },
      { name: "a day", role: "viewer", expiresInDays: 1 },
    );
    expect(expiring.expiresAt!.getTime() - Date.now()).toBeGreaterThan(86_000_000);
    await db.apiKey.update({ where: { id: expiring.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await checkAccess("data.read", bearer(expiring.key), server.context, "sessionOrKey")).toMatchObject({
      ok: false,
      status: 401,
      message: "This API key has expired.",
    });

    const banned = await createUserAccount(server.auth, db, {
      email: "banned@example.com",
      password: "banned password 1234",
      name: "Ban Ned",
      role: "runner",
    });
    const bannedKey = await createApiKey(server.auth, { id: banned.id, role: "runner" }, { name: "x", role: "runner" });
    await db.user.update({ where: { id: banned.id }, data: { banned: true } });
    expect(await checkAccess("data.read", bearer(bannedKey.key), server.context, "sessionOrKey")).toMatchObject({
      ok: false,
      status: 401,
    });
  });

  it("are rate-limited per key, answering 429 with when to try again", async () => {
    const key = await createApiKey(server.auth, { id: runnerId, role: "runner" }, { name: "busy", role: "viewer" });
    // Start the window nearly full rather than making 600 requests.
    await db.apiKey.update({
      where: { id: key.id },
      data: { requestCount: API_KEY_REQUESTS_PER_MINUTE - 1, lastRequest: new Date() },
    });
    expect(await checkAccess("data.read", bearer(key.key), server.context, "sessionOrKey")).toMatchObject({ ok: true });
    const limited = await checkAccess("data.read", bearer(key.key), server.context, "sessionOrKey");
    expect(limited).toMatchObject({ ok: false, status: 429 });
    if (limited.ok) return;
    expect(limited.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(limited.retryAfterSeconds).toBeLessThanOrEqual(60);
    const response = refusalResponse(limited);
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe(String(limited.retryAfterSeconds));
    // Another key of the same owner is not limited.
    const other = await createApiKey(server.auth, { id: runnerId, role: "runner" }, { name: "quiet", role: "viewer" });
    expect(await checkAccess("data.read", bearer(other.key), server.context, "sessionOrKey")).toMatchObject({
      ok: true,
    });
  });

  it("cannot be made or listed through Better Auth's own HTTP endpoints", async () => {
    const signedIn = await signInOverHttp(server.baseURL, RUNNER.email, RUNNER.password);
    const cookie = signedIn.get("cookie") ?? "";
    const create = await postAuth(
      server.baseURL,
      "/api-key/create",
      { name: "sneaky", metadata: { role: "admin" } },
      cookie,
    );
    expect(create.status).toBe(404);
    const list = await fetch(`${server.baseURL}/api/auth/api-key/list`, { headers: { cookie } });
    expect(list.status).toBe(404);
  });

  it("are made from the command line for an existing account, printed once and alone on standard output", async () => {
    const env = { DATABASE_URL: temp.url, ASSAY_AUTH_SECRET: TEST_SECRET };
    const made = await runUserKey(
      ["--email", RUNNER.email.toUpperCase(), "--role", "viewer", "--name", "CI on main", "--expires-days", "30"],
      env,
    );
    expect(made.code, made.stderr).toBe(0);
    const key = made.stdout.trim();
    expect(key).toMatch(new RegExp(`^${API_KEY_PREFIX}\\S{64,}$`));
    expect(made.stderr).toContain(`Created a viewer key for ${RUNNER.email}, valid until`);
    expect(made.stderr).not.toContain(key);
    expect(await checkAccess("data.read", bearer(key), server.context, "sessionOrKey")).toMatchObject({
      ok: true,
      user: { id: runnerId, role: "viewer" },
    });

    const tooStrong = await runUserKey(["--email", RUNNER.email, "--role", "admin"], env);
    expect(tooStrong.code).toBe(1);
    expect(tooStrong.stderr).toContain("A key cannot have a higher role than its creator's (runner).");
    const nobody = await runUserKey(["--email", "nobody@example.com", "--role", "viewer"], env);
    expect(nobody.code).toBe(2);
    expect(nobody.stderr).toContain("No account has the email nobody@example.com.");
    const badDays = await runUserKey(["--email", RUNNER.email, "--role", "viewer", "--expires-days", "900"], env);
    expect(badDays.code).toBe(2);
    expect(badDays.stdout).toBe("");
  }, 60_000);
});
