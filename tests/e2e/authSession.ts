// Sign-in for the tests of the built app with accounts on: users made as
// `npm run user:create` makes them, sessions from
// Better Auth's own sign-in endpoint, and server actions called the way
// Next's client calls them (a POST with a Next-Action header and the
// arguments encoded by React's encodeReply).
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { expect } from "vitest";
import { z } from "zod";
import type { Role } from "@/lib/auth/roles";
import { createAuth } from "@/lib/auth/createAuth";
import { createUserAccount } from "@/lib/auth/createUserAccount";
import { closeDb, createDb } from "@/lib/db/client";
import { ROOT } from "./appServer";

/** From `openssl rand -base64 32`, as the README and docs/security.md say to make one (decideAuthMode refuses a patterned one). */
export const E2E_AUTH_SECRET = "modaaT85J3t7Wh166jHudkmd3BCaRGaX9kMWiICKggc=";

export type TestUser = { role: Role; email: string; name: string; password: string };

export const USERS: Record<Role, TestUser> = {
  viewer: { role: "viewer", email: "vera@example.com", name: "Vera Viewer", password: "viewer password 1234" },
  runner: { role: "runner", email: "rita@example.com", name: "Rita Runner", password: "runner password 1234" },
  admin: { role: "admin", email: "ada@example.com", name: "Ada Admin", password: "admin password 12345" },
};

/** A fourth account, never signed in: the one whose role the admin changes. */
export const OTHER_USER: TestUser = {
  role: "viewer",
  email: "olga@example.com",
  name: "Olga Other",
  password: "other password 1234",
};

/**
 * Creates each user on the server's database with the function \`npm run user:create\` calls (an admin's
 * create-user through Better Auth, which hashes the password), in this process. The program itself, its
 * password on standard input and what it prints, is tested as its own process in tests/auth/accounts.test.ts;
 * spawned here it cost about 3 s of CPU a user, most of it loading its modules (33 users a browser suite).
 */
export async function createUsers(databaseUrl: string, users: TestUser[] = Object.values(USERS)): Promise<void> {
  const db = createDb(databaseUrl);
  try {
    const auth = createAuth({ db, secret: E2E_AUTH_SECRET, baseURL: "http://127.0.0.1:3000" });
    for (const user of users) await createUserAccount(auth, db, user);
  } finally {
    await closeDb(db);
  }
}

/** Signs in through /api/auth/sign-in/email as the browser's form does; returns the Cookie header to send back. */
export async function signInCookie(baseUrl: string, user: TestUser): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  expect(response.status, `sign-in of ${user.email}: ${await response.clone().text()}`).toBe(200);
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  expect(cookie).toContain("assay.session_token=");
  return cookie;
}

const manifestSchema = z.object({
  node: z.record(z.string(), z.object({ exportedName: z.string(), filename: z.string() })),
});

/** Server action ids by exported name, from the build's manifest (they change with every build). */
export function serverActionIds(): Map<string, string> {
  const manifestPath = path.join(ROOT, ".next", "server", "server-reference-manifest.json");
  const manifest = manifestSchema.parse(JSON.parse(fs.readFileSync(manifestPath, "utf8")));
  const ids = new Map<string, string>();
  for (const [id, entry] of Object.entries(manifest.node))
    if (entry.filename.startsWith("app/actions/")) ids.set(entry.exportedName, id);
  return ids;
}

type EncodeReply = (value: unknown) => Promise<FormData | string>;
/** React's encoding of a server action's arguments, as Next's client sends them. */
export const { encodeReply } = createRequire(import.meta.url)(
  "next/dist/compiled/react-server-dom-webpack/client.node",
) as {
  encodeReply: EncodeReply;
};

export type ActionReply = { status: number; body: string; redirect: string | null };

/**
 * Calls a server action as Next's client does from `pagePath`: same-origin
 * (Origin is the server's own) unless `origin` says otherwise. `args` are the
 * action's arguments (a FormData for form actions, `[previousState, FormData]`
 * for useActionState ones).
 */
export async function callAction(
  baseUrl: string,
  pagePath: string,
  actionId: string,
  args: unknown[],
  options: { cookie?: string; origin?: string; fetchSite?: string; authorization?: string } = {},
): Promise<ActionReply> {
  const body = await encodeReply(args);
  const headers: Record<string, string> = {
    "next-action": actionId,
    accept: "text/x-component",
    origin: options.origin ?? baseUrl,
  };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.authorization) headers.authorization = options.authorization;
  if (options.fetchSite) headers["sec-fetch-site"] = options.fetchSite;
  if (typeof body === "string") headers["content-type"] = "text/plain;charset=UTF-8";
  const response = await fetch(`${baseUrl}${pagePath}`, { method: "POST", headers, body, redirect: "manual" });
  return {
    status: response.status,
    body: await response.text(),
    redirect: response.headers.get("x-action-redirect") ?? response.headers.get("location"),
  };
}

export function formData(fields: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields))
    for (const item of Array.isArray(value) ? value : [value]) data.append(key, item);
  return data;
}
