// Sign-in for the tests of the built app with accounts on: users made with
// `npm run user:create` (its script, as its own process), sessions from
// Better Auth's own sign-in endpoint, and server actions called the way
// Next's client calls them (a POST with a Next-Action header and the
// arguments encoded by React's encodeReply).
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { expect } from "vitest";
import { z } from "zod";
import type { Role } from "@/lib/auth/roles";
import { runUserCreate } from "../auth/authKit";
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
 * Creates each user with the CLI on the server's database, as docs/security.md says (password on standard input).
 * The CLIs run side by side: each spends about 3 s loading its modules, which one after another was most
 * of a browser test file's setup.
 */
export async function createUsersWithCli(databaseUrl: string, users: TestUser[] = Object.values(USERS)) {
  const results = await Promise.all(
    users.map((user) =>
      runUserCreate(
        [`--${user.role}`, user.email, "--name", user.name, "--password-stdin"],
        { DATABASE_URL: databaseUrl, ASSAY_AUTH_SECRET: E2E_AUTH_SECRET },
        `${user.password}\n`,
      ),
    ),
  );
  users.forEach((user, i) => {
    expect(results[i].code, `user:create ${user.email}: ${results[i].stderr}`).toBe(0);
    expect(results[i].stdout + results[i].stderr).not.toContain(user.password);
  });
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
