// What an API key can reach, and how much: never a server action or page (the browser's), never account,
// settings or key management on any route, at most API_KEYS_PER_USER keys a person, and at most
// API_KEY_OWNER_REQUESTS_PER_MINUTE requests a minute over all of a person's keys, bursts included.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  API_KEY_OWNER_REQUESTS_PER_MINUTE,
  API_KEY_REQUESTS_PER_MINUTE,
  API_KEYS_PER_USER,
} from "@/lib/auth/apiKeyPolicy";
import { ApiKeyRefusedError, createApiKey } from "@/lib/auth/apiKeys";
import { createUserAccount } from "@/lib/auth/createUserAccount";
import { checkAccess, KEY_NOT_ACCEPTED_MESSAGE } from "@/lib/auth/guard";
import { ACTIONS, KEYLESS_ACTIONS } from "@/lib/auth/permissions";
import type { Db } from "@/lib/db/client";
import { listApiKeys, revokeApiKey } from "@/lib/db/accounts/apiKeyQueries";
import { createTempDb } from "../support/tempDb";
import { signInOverHttp, startAuthServer } from "./authKit";

const ADMIN = { email: "reach.admin@example.com", password: "admin password 12345", name: "Ada Reach" };
const VIEWER = { email: "reach.viewer@example.com", password: "viewer password 1234", name: "Vic Reach" };

let temp: Awaited<ReturnType<typeof createTempDb>>;
let db: Db;
let server: Awaited<ReturnType<typeof startAuthServer>>;
let adminId: string;
let viewerId: string;

const bearer = (key: string, extra: Record<string, string> = {}) =>
  new Headers({ authorization: `Bearer ${key}`, host: "127.0.0.1", ...extra });

beforeAll(async () => {
  temp = await createTempDb();
  db = temp.db;
  server = await startAuthServer(db);
  adminId = (await createUserAccount(server.auth, db, { ...ADMIN, role: "admin" })).id;
  viewerId = (await createUserAccount(server.auth, db, { ...VIEWER, role: "viewer" })).id;
}, 120_000);

afterAll(async () => {
  await server?.close();
  await temp?.cleanup();
});

describe("an admin's API key", () => {
  it("is refused by every server action and page, before it is looked up, even beside a valid session", async () => {
    const key = await createApiKey(server.auth, { id: adminId, role: "admin" }, { name: "CI", role: "admin" });
    const cookie = (await signInOverHttp(server.baseURL, ADMIN.email, ADMIN.password)).get("cookie") ?? "";
    for (const action of ACTIONS) {
      // "session" is what requireRole/checkRole (server actions, pages) ask for.
      expect(await checkAccess(action, bearer(key.key), server.context, "session"), action).toEqual({
        ok: false,
        status: 401,
        message: KEY_NOT_ACCEPTED_MESSAGE,
      });
      expect(await checkAccess(action, bearer(key.key, { cookie }), server.context), action).toMatchObject({
        ok: false,
        status: 401,
      });
    }
    // The admin's own session alone still manages users: the refusal is of the key, not of the person.
    expect(await checkAccess("users.manage", new Headers({ cookie }), server.context)).toMatchObject({ ok: true });
  });

  it("cannot manage users, settings or keys on any route, while it takes its role's other actions there", async () => {
    const key = await createApiKey(server.auth, { id: adminId, role: "admin" }, { name: "ops", role: "admin" });
    expect([...KEYLESS_ACTIONS].sort()).toEqual(["apikeys.own", "settings.manage", "users.manage"]);
    for (const action of ACTIONS) {
      const access = await checkAccess(action, bearer(key.key), server.context, "sessionOrKey");
      if (KEYLESS_ACTIONS.has(action)) expect(access, action).toMatchObject({ ok: false, status: 403 });
      else expect(access, action).toMatchObject({ ok: true, user: { id: adminId, role: "admin" } });
    }
  });
});

describe("keys per person", () => {
  it(`are capped at ${API_KEYS_PER_USER}, also when a burst of creations races the count`, async () => {
    const person = await createUserAccount(server.auth, db, {
      email: "many.keys@example.com",
      password: "many keys password 1",
      name: "Manny Keys",
      role: "viewer",
    });
    const creator = { id: person.id, role: "viewer" as const };
    const attempts = await Promise.allSettled(
      Array.from({ length: 20 }, (_, index) =>
        createApiKey(server.auth, creator, { name: `k${index}`, role: "viewer" }),
      ),
    );
    const made = attempts.filter((attempt) => attempt.status === "fulfilled").length;
    const refused = attempts.filter(
      (attempt) => attempt.status === "rejected" && attempt.reason instanceof ApiKeyRefusedError,
    );
    expect(made + refused.length).toBe(20);
    expect(made).toBeLessThanOrEqual(API_KEYS_PER_USER);
    expect((await listApiKeys(db, person.id)).length).toBe(made);
    // Filled one at a time up to the cap; the next is refused, naming it.
    while ((await listApiKeys(db, person.id)).length < API_KEYS_PER_USER)
      await createApiKey(server.auth, creator, { name: "fill", role: "viewer" });
    await expect(createApiKey(server.auth, creator, { name: "one more", role: "viewer" })).rejects.toThrow(
      `You already have ${API_KEYS_PER_USER} API keys`,
    );
    expect((await listApiKeys(db, person.id)).length).toBe(API_KEYS_PER_USER);
    // Revoking one makes room; an expired key does not count.
    const [newest] = await listApiKeys(db, person.id);
    expect(await revokeApiKey(db, newest.id, person.id)).toBe(true);
    const replacement = await createApiKey(server.auth, creator, { name: "rotated", role: "viewer" });
    await db.apiKey.update({ where: { id: replacement.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await createApiKey(server.auth, creator, { name: "after expiry", role: "viewer" });
  });
});

describe("requests per person", () => {
  it("are limited over all of a person's keys together, so more keys do not mean more requests", async () => {
    const keys = await Promise.all(
      [0, 1, 2].map((index) =>
        createApiKey(server.auth, { id: viewerId, role: "viewer" }, { name: `dash ${index}`, role: "viewer" }),
      ),
    );
    // Two keys each near their own limit fill the owner's; a third, unused key is then refused too.
    const nearlyFull = API_KEY_REQUESTS_PER_MINUTE - 1;
    expect(2 * nearlyFull).toBeLessThanOrEqual(API_KEY_OWNER_REQUESTS_PER_MINUTE);
    for (const key of keys.slice(0, 2))
      await db.apiKey.update({ where: { id: key.id }, data: { requestCount: nearlyFull, lastRequest: new Date() } });
    const stillUnder = API_KEY_OWNER_REQUESTS_PER_MINUTE - 2 * nearlyFull;
    for (let request = 0; request < stillUnder; request += 1)
      expect(await checkAccess("data.read", bearer(keys[2].key), server.context, "sessionOrKey")).toMatchObject({
        ok: true,
      });
    const over = await checkAccess("data.read", bearer(keys[2].key), server.context, "sessionOrKey");
    expect(over).toMatchObject({ ok: false, status: 429, retryAfterSeconds: 60 });
    expect(!over.ok && over.message).toContain(`more than ${API_KEY_OWNER_REQUESTS_PER_MINUTE} requests`);
    expect(
      await Promise.all(keys.map((key) => checkAccess("data.read", bearer(key.key), server.context, "sessionOrKey"))),
    ).toMatchObject([{ ok: false }, { ok: false }, { ok: false }]);
    // Another person's keys are not affected.
    const admins = await createApiKey(server.auth, { id: adminId, role: "admin" }, { name: "other", role: "viewer" });
    expect(await checkAccess("data.read", bearer(admins.key), server.context, "sessionOrKey")).toMatchObject({
      ok: true,
    });
  });

  it("hold under a burst spread over several keys", async () => {
    const person = await createUserAccount(server.auth, db, {
      email: "bursty@example.com",
      password: "bursty password 123",
      name: "Bea Burst",
      role: "viewer",
    });
    const keys = await Promise.all(
      [0, 1, 2].map((index) =>
        createApiKey(server.auth, { id: person.id, role: "viewer" }, { name: `b${index}`, role: "viewer" }),
      ),
    );
    // Five requests left for the owner; each of the first two keys alone would admit more than that in total.
    const left = 5;
    const first = API_KEY_REQUESTS_PER_MINUTE - 1;
    const second = API_KEY_OWNER_REQUESTS_PER_MINUTE - left - first;
    await db.apiKey.update({ where: { id: keys[0].id }, data: { requestCount: first, lastRequest: new Date() } });
    await db.apiKey.update({ where: { id: keys[1].id }, data: { requestCount: second, lastRequest: new Date() } });
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        checkAccess("data.read", bearer(keys[index % 3].key), server.context, "sessionOrKey"),
      ),
    );
    expect(burst.filter((access) => access.ok).length).toBeLessThanOrEqual(left);
    expect(burst.filter((access) => !access.ok && access.status === 429).length).toBeGreaterThanOrEqual(30 - left);
  });
});
