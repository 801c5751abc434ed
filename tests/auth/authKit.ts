import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { toNodeHandler } from "better-auth/node";
import { inject } from "vitest";
import { createAuth, type Auth } from "@/lib/auth/createAuth";
import type { AuthContext } from "@/lib/auth/guard";
import type { Db } from "@/lib/db/client";
import type { OidcConfig } from "@/lib/auth/oidcConfig";
import { endWithThisProcess } from "../support/processCleanup";
import { testPasswordHasher } from "./testPasswordHasher";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** From `openssl rand -base64 32`: a secret decideAuthMode accepts (a patterned one is refused as guessable). */
export const TEST_SECRET = "G4hxPnQrHyVwAeNGkp3WNCFsZnZLZAE0uSlLg3jtetc=";

/**
 * Better Auth on the test store (a SQLite file or PostgreSQL), behind a real HTTP server on loopback:
 * what /api/auth does in the app, without building Next.js.
 */
export async function startAuthServer(
  db: Db,
  options: { oidc?: (baseURL: string) => OidcConfig | null; rateLimit?: boolean } = {},
): Promise<{ auth: Auth; baseURL: string; context: AuthContext; close: () => Promise<void> }> {
  let handler: ReturnType<typeof toNodeHandler> | null = null;
  const server = http.createServer((req, res) => {
    if (handler) void handler(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Rate limits off unless asked for: the tests sign in more often than 3 times in 10 s. Passwords hashed at a
  // test's cost (testPasswordHasher.ts); the browser tests sign in through the app's own hash.
  const auth = createAuth({
    db,
    secret: TEST_SECRET,
    baseURL,
    oidc: options.oidc?.(baseURL) ?? null,
    rateLimit: options.rateLimit ?? false,
    passwordHasher: testPasswordHasher,
  });
  handler = toNodeHandler(auth);
  return {
    auth,
    baseURL,
    context: { mode: { kind: "on", secret: TEST_SECRET }, auth: () => auth },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** POSTs JSON to a Better Auth endpoint as a browser on the same origin would. */
export async function postAuth(baseURL: string, endpoint: string, body: unknown, cookie?: string): Promise<Response> {
  return fetch(`${baseURL}/api/auth${endpoint}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseURL, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

/** The Cookie header a browser would send back after this response. */
export function cookieFrom(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

/** Signs in over HTTP and returns the request headers of a signed-in browser. */
export async function signInOverHttp(baseURL: string, email: string, password: string): Promise<Headers> {
  const response = await postAuth(baseURL, "/sign-in/email", { email, password });
  if (response.status !== 200) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
  return new Headers({ cookie: cookieFrom(response) });
}

/** lingeredMs: from the CLI's last output to its exit, the time it kept the process alive having said its last. */
export type CliResult = { code: number | null; stdout: string; stderr: string; lingeredMs: number };

/** Runs `npm run user:create`'s program as its own process (its bundle: cliBundleGlobalSetup.ts), the password on standard input. */
export function runUserCreate(args: string[], env: Record<string, string>, stdin: string): Promise<CliResult> {
  return runAccountScript(inject("cliBundles").userCreate, args, env, stdin);
}

/** Runs `npm run user:key`'s program as its own process (its bundle). */
export function runUserKey(args: string[], env: Record<string, string>): Promise<CliResult> {
  return runAccountScript(inject("cliBundles").userKey, args, env, "");
}

function runAccountScript(
  bundle: string,
  args: string[],
  env: Record<string, string>,
  stdin: string,
): Promise<CliResult> {
  const child = spawn(process.execPath, [bundle, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", NODE_ENV: "test", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const untrack = endWithThisProcess(child, { group: false });
  let stdout = "";
  let stderr = "";
  let lastOutput = Date.now();
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
    lastOutput = Date.now();
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
    lastOutput = Date.now();
  });
  child.stdin.end(stdin);
  return new Promise((resolve) => {
    child.on("exit", (code) => {
      untrack();
      resolve({ code, stdout, stderr, lingeredMs: Date.now() - lastOutput });
    });
  });
}
