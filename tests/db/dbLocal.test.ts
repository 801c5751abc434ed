import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "@/lib/db/store/postgresAdmin";
import { endWithThisProcess } from "../support/processCleanup";

const ROOT = path.resolve(import.meta.dirname, "../..");

type Env = Record<string, string>;

type Started = { child: ChildProcess; url: string; output: () => string; exited: Promise<number | null> };

/** `npm run db:local` as a child process, until it prints the DATABASE_URL to use. */
async function startDbLocal(env: Env): Promise<Started> {
  // Its own process group, so a failed test can kill the server it started along with it.
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/db-local.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const release = endWithThisProcess(child, { group: true });
  let output = "";
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      release();
      resolve(code);
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`db:local printed no URL within 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /DATABASE_URL='(postgresql:\/\/[^']+)' npm start/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    void exited.then((code) => reject(new Error(`db:local exited (${code}) before printing a URL:\n${output}`)));
  });
  return { child, url, output: () => output, exited };
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

function alive(pid: number): boolean {
  const stat = fs.existsSync(`/proc/${pid}/stat`) ? fs.readFileSync(`/proc/${pid}/stat`, "utf8") : null;
  return stat !== null && stat.split(" ")[2] !== "Z";
}

describe("npm run db:local", () => {
  let dir: string;
  let port: number;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-db-local-"));
    port = await freePort();
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("starts a PostgreSQL, prints the URL to use, stops on SIGTERM, and keeps the data and password for the next start", async () => {
    const env = { ASSAY_LOCAL_PG_DIR: dir, ASSAY_LOCAL_PG_PORT: String(port) };
    const first = await startDbLocal(env);
    expect(new URL(first.url).port).toBe(String(port));
    expect(first.output()).toContain(`DATABASE_URL='${first.url}' npm run db:deploy`);
    expect(await query<{ db: string }>(first.url, "SELECT current_database() AS db")).toEqual([{ db: "assay" }]);
    await query(first.url, "CREATE TABLE kept (n int); INSERT INTO kept VALUES (42)");
    // The password is generated once, kept beside the data, readable by this user only.
    const passwordFile = path.join(dir, "password");
    expect(fs.statSync(passwordFile).mode & 0o777).toBe(0o600);
    expect(decodeURIComponent(new URL(first.url).password)).toBe(fs.readFileSync(passwordFile, "utf8").trim());
    const serverPid = Number(fs.readFileSync(path.join(dir, "cluster", "postmaster.pid"), "utf8").split("\n")[0]);
    expect(alive(serverPid)).toBe(true);

    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain("PostgreSQL stopped.");
    expect(alive(serverPid)).toBe(false);
    await expect(query(first.url, "SELECT 1")).rejects.toThrow(/ECONNREFUSED/);

    const second = await startDbLocal(env);
    try {
      expect(second.url).toBe(first.url);
      expect(await query<{ n: number }>(second.url, "SELECT n FROM kept")).toEqual([{ n: 42 }]);
    } finally {
      second.child.kill("SIGINT");
      expect(await second.exited).toBe(0);
    }
  });

  it("refuses a port already in use, and says what to do", async () => {
    const taken = await new Promise<net.Server>((resolve) => {
      const server = net.createServer();
      server.listen(0, "127.0.0.1", () => resolve(server));
    });
    try {
      const busyPort = (taken.address() as net.AddressInfo).port;
      const run = startDbLocal({ ASSAY_LOCAL_PG_DIR: path.join(dir, "other"), ASSAY_LOCAL_PG_PORT: String(busyPort) });
      await expect(run).rejects.toThrow(`Port ${busyPort} is already in use`);
      await expect(run).rejects.toThrow("ASSAY_LOCAL_PG_PORT");
    } finally {
      taken.close();
    }
  });
});
