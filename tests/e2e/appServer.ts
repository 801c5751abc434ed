// Starts the built app for browser tests: a fresh SQLite file, prepare-db
// (migrations + the sample dataset), then `next start` on a free loopback port.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");
const NEXT_BIN = path.join(ROOT, "node_modules", ".bin", "next");
const TSX_BIN = path.join(ROOT, "node_modules", ".bin", "tsx");
const READY_TIMEOUT_MS = 60_000;
const BUILD_TIMEOUT_MS = 5 * 60_000;

export type AppServer = {
  baseUrl: string;
  databaseUrl: string;
  /** Everything the server printed so far (stdout and stderr, interleaved). */
  output: () => string;
  stop: () => Promise<void>;
};

export type AppServerOptions = {
  /** Extra environment for prepare-db and the server, e.g. { ASSAY_MAX_UPLOAD_MB: "1" }. */
  env?: Record<string, string>;
};

export async function startAppServer(options: AppServerOptions = {}): Promise<AppServer> {
  await ensureBuilt();
  const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-e2e-db-"));
  const databaseUrl = `file:${path.join(dbDir, "assay.db")}`;
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", DATABASE_URL: databaseUrl, ...options.env };
  try {
    const prepared = await run(TSX_BIN, ["scripts/prepare-db.ts"], env, 120_000);
    if (prepared.code !== 0) throw new Error(`prepare-db failed (exit ${prepared.code}):\n${prepared.output}`);
    for (let attempt = 1; ; attempt++) {
      try {
        return await startNext(env, databaseUrl, () => fs.rmSync(dbDir, { recursive: true, force: true }));
      } catch (error) {
        // Another process may grab the port between probing and listening; try a new one.
        if (attempt >= 3 || !String(error).includes("EADDRINUSE")) throw error;
      }
    }
  } catch (error) {
    fs.rmSync(dbDir, { recursive: true, force: true });
    throw error;
  }
}

async function startNext(env: NodeJS.ProcessEnv, databaseUrl: string, cleanup: () => void): Promise<AppServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // Detached: the server leads its own process group, so stop() can end it and anything it spawned, by its id.
  const child = spawn(NEXT_BIN, ["start", "-H", "127.0.0.1", "-p", String(port)], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (data) => { output += data; });
  child.stderr!.on("data", (data) => { output += data; });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let running = true;
  void exited.then(() => { running = false; });
  const killOnExit = () => { if (running) killGroup(child, "SIGKILL"); };
  process.once("exit", killOnExit);

  const stop = async () => {
    process.removeListener("exit", killOnExit);
    if (running) {
      killGroup(child, "SIGTERM");
      const timer = setTimeout(() => killGroup(child, "SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
    cleanup();
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastStatus = "no answer";
  while (true) {
    if (!running) {
      await stop();
      throw new Error(`next start exited before it answered (exit ${await exited}). Server output:\n${output}`);
    }
    try {
      const response = await fetch(`${baseUrl}/datasets`, { signal: AbortSignal.timeout(10_000) });
      lastStatus = `HTTP ${response.status}`;
      await response.arrayBuffer();
      if (response.status === 200) break;
    } catch (error) {
      lastStatus = String(error);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`/datasets did not answer 200 within ${READY_TIMEOUT_MS / 1000} s (last: ${lastStatus}). Server output:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { baseUrl, databaseUrl, output: () => output, stop };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (data) => { output += data; });
    child.stderr.on("data", (data) => { output += data; });
    const timer = setTimeout(() => { child.kill("SIGKILL"); output += `\n[killed after ${timeoutMs / 1000} s]`; }, timeoutMs);
    child.once("error", (error) => { clearTimeout(timer); reject(error); });
    child.once("close", (code) => { clearTimeout(timer); resolve({ code, output }); });
  });
}

/**
 * Builds the app once per vitest run. The first caller takes a lock folder in
 * the run's scratch folder (made by globalSetup.ts) and builds; callers in
 * other test files wait for its result. ASSAY_E2E_SKIP_BUILD=1 uses the
 * existing .next build as is.
 */
async function ensureBuilt(): Promise<void> {
  if (process.env.ASSAY_E2E_SKIP_BUILD === "1") {
    if (!fs.existsSync(path.join(ROOT, ".next", "BUILD_ID"))) throw new Error("ASSAY_E2E_SKIP_BUILD=1 but there is no build in .next; run npm run build first");
    return;
  }
  let runDir: string | undefined;
  try {
    runDir = inject("assayE2eRunDir");
  } catch {
    runDir = undefined;
  }
  if (!runDir) throw new Error("tests/e2e/globalSetup.ts did not run; it must be listed in vitest.config.ts test.globalSetup");
  const resultFile = path.join(runDir, "build-result.json");
  let builder = false;
  try {
    fs.mkdirSync(path.join(runDir, "build.lock"));
    builder = true;
  } catch {
    builder = false;
  }
  if (builder) {
    const started = Date.now();
    const result = await run("npm", ["run", "build"], { ...process.env, NEXT_TELEMETRY_DISABLED: "1" }, BUILD_TIMEOUT_MS);
    // Written then renamed, so a waiting file never reads half a result.
    fs.writeFileSync(`${resultFile}.tmp`, JSON.stringify({ ok: result.code === 0, output: result.output, seconds: (Date.now() - started) / 1000 }));
    fs.renameSync(`${resultFile}.tmp`, resultFile);
  }
  const deadline = Date.now() + BUILD_TIMEOUT_MS + 10_000;
  while (!fs.existsSync(resultFile)) {
    if (Date.now() > deadline) throw new Error("timed out waiting for another test file's npm run build");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const result = JSON.parse(fs.readFileSync(resultFile, "utf8")) as { ok: boolean; output: string };
  if (!result.ok) throw new Error(`npm run build failed:\n${result.output}`);
}
