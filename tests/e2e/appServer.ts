// Starts the built app for browser tests: a fresh store as prepare-db leaves a
// new one (a copy of the SQLite file, or of the PostgreSQL template database,
// that globalSetup.ts prepared: preparedStores.ts), then `next start` on a free
// loopback port. The build itself is made once per run by globalSetup.ts.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import type { Dialect } from "@/lib/db/store/dialect";
import { freePort, runStatement } from "@/lib/db/store/postgresAdmin";
import { endWithThisProcess } from "../support/processCleanup";
import { createDatabaseFrom } from "../support/postgresGlobalSetup";
import { webServerEnv } from "@/lib/runtime/webServerEnv";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");
const NEXT_BIN = path.join(ROOT, "node_modules", ".bin", "next");
const READY_TIMEOUT_MS = 60_000;

export type AppServer = {
  baseUrl: string;
  /** The `next start` process (the server itself), e.g. to read its memory from /proc. */
  pid: number;
  databaseUrl: string;
  /** Everything the server printed so far (stdout and stderr, interleaved). */
  output: () => string;
  stop: () => Promise<void>;
};

export type AppServerOptions = {
  /** Extra environment for prepare-db and the server, e.g. { ASSAY_MAX_UPLOAD_MB: "1" }. */
  env?: Record<string, string>;
  /** The store the app runs on: SQLite (the default), or PostgreSQL (tests/support/postgresGlobalSetup.ts's server). */
  store?: Dialect;
  /**
   * Started as `npx next start` or a Procfile would: no -H (every interface) and not the address check's
   * marker that npm start hands the server. Ready when it answers at all, since it refuses everything.
   */
  addressUnchecked?: boolean;
};

let postgresDatabases = 0;

/** A new, empty store: prepare-db migrates it and loads the sample, as on a user's first `npm start`. */
async function freshStore(store: Dialect, dbDir: string): Promise<{ databaseUrl: string; drop: () => Promise<void> }> {
  if (store === "sqlite") return { databaseUrl: `file:${path.join(dbDir, "assay.db")}`, drop: async () => {} };
  const serverUrl = inject("postgresUrl");
  const name = `e2e_${process.pid}_${++postgresDatabases}`;
  // As prepare-db leaves a new store, from the run's prepared template (preparedStores.ts), unless a test brings
  // its own DATABASE_URL and prepare-db runs on that (below).
  await createDatabaseFrom(serverUrl, name, inject("assayE2ePostgresTemplate"));
  return {
    databaseUrl: serverUrl.replace(/\/postgres$/, `/${name}`),
    drop: () => runStatement(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

export async function startAppServer(options: AppServerOptions = {}): Promise<AppServer> {
  const serverRegistry = registryDir();
  if (!fs.existsSync(path.join(ROOT, ".next", "BUILD_ID")))
    throw new Error("there is no build in .next; tests/e2e/globalSetup.ts should have built it");
  const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-e2e-db-"));
  const { databaseUrl, drop } = await freshStore(options.store ?? "sqlite", dbDir);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // As a user's `npm start` runs it: vitest's own NODE_ENV (test) would switch Next and libraries to test behaviour.
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: databaseUrl,
    // What npm start's address check hands the server it starts with -H 127.0.0.1, as startNext does below.
    ASSAY_ADDRESS_CHECKED: "127.0.0.1",
    ...options.env,
  };
  if (options.addressUnchecked) delete env.ASSAY_ADDRESS_CHECKED;
  try {
    // A new store is a copy of the one globalSetup prepared (a file on SQLite, a template database on PostgreSQL);
    // a store a test brings runs prepare-db, as `npm start` would (bundled once per run, as the tests' other
    // command-line programs are: tests/support/cliBundleGlobalSetup.ts).
    if ((options.store ?? "sqlite") === "sqlite" && !options.env?.DATABASE_URL)
      fs.copyFileSync(inject("assayE2ePreparedStore"), path.join(dbDir, "assay.db"));
    else if (options.env?.DATABASE_URL) {
      const prepared = await run(process.execPath, [inject("cliBundles").prepareDb], env, 120_000);
      if (prepared.code !== 0) throw new Error(`prepare-db failed (exit ${prepared.code}):\n${prepared.output}`);
    }
    for (let attempt = 1; ; attempt++) {
      try {
        return await startNext(env, databaseUrl, serverRegistry, dbDir, drop, options.addressUnchecked ?? false);
      } catch (error) {
        // Another process may grab the port between probing and listening; try a new one.
        if (attempt >= 3 || !String(error).includes("EADDRINUSE")) throw error;
      }
    }
  } catch (error) {
    fs.rmSync(dbDir, { recursive: true, force: true });
    await drop().catch(() => {});
    throw error;
  }
}

/** The run's list of live servers (made by globalSetup.ts), which its teardown stops if a test file could not. */
function registryDir(): string {
  let runDir: string | undefined;
  try {
    runDir = inject("assayE2eRunDir");
  } catch {
    runDir = undefined;
  }
  if (!runDir)
    throw new Error(
      "tests/e2e/globalSetup.ts did not run; the e2e project in vitest.config.ts must list it in globalSetup",
    );
  return path.join(runDir, "servers");
}

async function startNext(
  env: NodeJS.ProcessEnv,
  databaseUrl: string,
  serverRegistry: string,
  dbDir: string,
  dropStore: () => Promise<void>,
  addressUnchecked: boolean,
): Promise<AppServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const host = addressUnchecked ? [] : ["-H", "127.0.0.1"];
  // Detached: the server leads its own process group, so stop() can end it and anything it spawned, by its id.
  // With the start settings npm start gives the server (scripts/serve.ts).
  const child = spawn(NEXT_BIN, ["start", ...host, "-p", String(port)], {
    cwd: ROOT,
    env: { ...env, ...webServerEnv(env) },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Three nets, innermost first: stop() below; this process ending (exit or signal); the run's teardown.
  const untrack = endWithThisProcess(child, { group: true });
  const registryFile = path.join(serverRegistry, String(child.pid));
  fs.writeFileSync(registryFile, dbDir); // what the teardown removes if this file is still here
  let output = "";
  child.stdout!.on("data", (data) => {
    output += data;
  });
  child.stderr!.on("data", (data) => {
    output += data;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let running = true;
  void exited.then(() => {
    running = false;
  });

  let ending: Promise<void> | undefined;
  const end = () => {
    ending ??= (async () => {
      if (running) {
        killGroup(child, "SIGTERM");
        const timer = setTimeout(() => killGroup(child, "SIGKILL"), 5_000);
        await exited;
        clearTimeout(timer);
      }
      // The leader is gone; end anything it left in its group.
      killGroup(child, "SIGKILL");
      untrack();
      fs.rmSync(registryFile, { force: true });
    })();
    return ending;
  };
  const stop = async () => {
    await end();
    fs.rmSync(dbDir, { recursive: true, force: true });
    await dropStore();
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastStatus = "no answer";
  try {
    while (true) {
      if (!running)
        throw new Error(`next start exited before it answered (exit ${await exited}). Server output:\n${output}`);
      try {
        const response = await fetch(`${baseUrl}/datasets`, { signal: AbortSignal.timeout(10_000) });
        lastStatus = `HTTP ${response.status}`;
        await response.arrayBuffer();
        if (response.status === 200 || (addressUnchecked && response.status === 503)) break;
      } catch (error) {
        lastStatus = String(error);
      }
      if (Date.now() > deadline)
        throw new Error(
          `/datasets did not answer 200 within ${READY_TIMEOUT_MS / 1000} s (last: ${lastStatus}). Server output:\n${output}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } catch (error) {
    await end(); // the caller keeps the database folder for a retry, or removes it
    throw error;
  }
  return { baseUrl, pid: child.pid!, databaseUrl, output: () => output, stop };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

/** Runs a command to completion (output collected), killed after timeoutMs or if this process ends first. */
export function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    const untrack = endWithThisProcess(child, { group: false });
    let output = "";
    child.stdout.on("data", (data) => {
      output += data;
    });
    child.stderr.on("data", (data) => {
      output += data;
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      output += `\n[killed after ${timeoutMs / 1000} s]`;
    }, timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      untrack();
      reject(error);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      untrack();
      resolve({ code, output });
    });
  });
}
