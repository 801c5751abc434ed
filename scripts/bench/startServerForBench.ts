import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { webServerEnv } from "../../lib/runtime/webServerEnv";

/**
 * Builds (unless told not to) and starts the production app on 127.0.0.1, on a fresh temp SQLite database,
 * or on the PostgreSQL that `options.databaseUrl` or DATABASE_URL names (`postgresql://…`: give it an empty
 * database; `npm run db:local` starts one), which is migrated first.
 */
export async function startServerForBench(options: { skipBuild?: boolean; databaseUrl?: string } = {}) {
  // npm runs scripts from the project root (this file may run bundled from elsewhere).
  const root = process.cwd();
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
  if (!options.skipBuild) {
    console.log("building the app (set BENCH_SKIP_BUILD=1 to reuse .next)…");
    const build = spawnSync("npm", ["run", "build"], { cwd: root, env, stdio: ["ignore", "ignore", "inherit"] });
    if (build.status !== 0) throw new Error("npm run build failed");
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-bench-"));
  const given = options.databaseUrl ?? process.env.DATABASE_URL;
  const postgresUrl = given?.startsWith("postgresql://") ? given : null;
  const databaseUrl = postgresUrl ?? `file:${path.join(dir, "bench.db")}`;
  // ASSAY_ADDRESS_CHECKED: as npm start hands it to the server it starts with -H 127.0.0.1.
  const serverEnv = {
    ...env,
    DATABASE_URL: databaseUrl,
    ASSAY_MAX_UPLOAD_MB: "100",
    ASSAY_ADDRESS_CHECKED: "127.0.0.1",
  };
  const prepare = spawnSync(path.join(root, "node_modules/.bin/tsx"), ["scripts/prepare-db.ts"], {
    cwd: root,
    env: serverEnv,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (prepare.status !== 0) throw new Error("prepare-db failed");
  const port = await freePort();
  const server: ChildProcess = spawn(
    path.join(root, "node_modules/.bin/next"),
    ["start", "-H", "127.0.0.1", "-p", String(port)],
    // As npm start runs it (scripts/serve.ts).
    {
      cwd: root,
      env: { ...serverEnv, ...webServerEnv(serverEnv) },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const pid = server.pid;
  if (pid === undefined) throw new Error("next start did not start");
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${baseUrl}/datasets`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (server.pid === undefined) throw new Error("next start did not start");
  return {
    baseUrl,
    databaseUrl,
    pid,
    stop: () => {
      server.kill("SIGTERM");
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

/** Resident memory of a process and its children, in bytes, from /proc (Linux). */
export function processTreeRss(pid: number): number {
  let total = 0;
  for (const id of [pid, ...childPids(pid)]) {
    try {
      const status = fs.readFileSync(`/proc/${id}/status`, "utf8");
      const match = /VmRSS:\s+(\d+) kB/.exec(status);
      if (match) total += Number(match[1]) * 1024;
    } catch {
      // process ended
    }
  }
  return total;
}

function childPids(pid: number): number[] {
  try {
    const children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    return children.flatMap((child) => [child, ...childPids(child)]);
  } catch {
    return [];
  }
}
