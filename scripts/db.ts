// Offline replacement for `prisma migrate deploy` and `prisma migrate dev --create-only`:
// the Prisma CLI needs a native engine it cannot download here, so these run
// the same schema engine compiled to wasm, on SQLite and on PostgreSQL. Run
// from the project root.
import os from "node:os";
import path from "node:path";
import { describeDatabaseUrl, resolveDatabaseUrl } from "../lib/db/databaseUrl";
import { applyPendingMigrations } from "../lib/db/migrations/applyMigrations";
import { createMigration } from "../lib/db/migrations/createMigration";
import { defaultMigrationsDirectory, readMigrationsDirectory } from "../lib/db/migrations/migrationsDirectory";
import { MigrationError } from "../lib/db/migrations/schemaEngine";
import { dialectOfUrl, type Dialect } from "../lib/db/store/dialect";

const USAGE = `Usage:
  tsx scripts/db.ts deploy          apply pending migrations to DATABASE_URL (default file:./data/assay.db; or postgresql://…)
  tsx scripts/db.ts create <name>   write the next migration of both stores from prisma/models.prisma:
                                    prisma/sqlite/migrations/<timestamp>_<name>/ and prisma/postgresql/migrations/<timestamp>_<name>/`;

class UsageError extends Error {}

async function deploy(): Promise<void> {
  const url = resolveDatabaseUrl();
  const dialect = dialectOfUrl(url);
  const { applied } = await applyPendingMigrations(url);
  const where = describeDatabaseUrl(url);
  const historyDir = displayPath(defaultMigrationsDirectory(dialect));
  if (applied.length === 0) {
    const known = readMigrationsDirectory(defaultMigrationsDirectory(dialect)).migrationDirectories.length;
    if (known === 0) console.log(`No migrations found in ${historyDir}; nothing to apply.`);
    else console.log(`No pending migrations; ${where} is up to date (${known} migration(s)).`);
    return;
  }
  console.log(`Applied ${applied.length} migration(s) to ${where}:`);
  for (const name of applied) console.log(`  ${name}`);
}

/**
 * One models file, two histories: the SQLite migration is diffed on a temp
 * file, the PostgreSQL one on a throw-away PostgreSQL started from npm, and
 * both get the SQLite one's folder name so the histories read side by side.
 */
async function create(name: string | undefined): Promise<void> {
  if (!name) throw new UsageError("create needs a migration name, e.g. `npm run db:migration -- add_users`.");
  const sqlite = await createMigration(name, { dialect: "sqlite" });
  const directoryName = sqlite.directory ? path.basename(sqlite.directory) : undefined;
  const postgres = await withScratchPostgres((scratchUrl) =>
    createMigration(name, { dialect: "postgresql", scratchUrl, directoryName }),
  );
  report("sqlite", sqlite.directory);
  report("postgresql", postgres.directory);
  if (Boolean(sqlite.directory) !== Boolean(postgres.directory)) {
    throw new MigrationError(
      "Only one store's history changed: the two histories disagree with the models. Check the migration written above.",
    );
  }
  if (sqlite.directory) console.log("Review them, then run `npm run db:deploy` to apply.");
}

function report(dialect: Dialect, directory: string | null): void {
  if (directory === null) console.log(`${dialect}: no schema changes; nothing written.`);
  else console.log(`${dialect}: created ${displayPath(path.join(directory, "migration.sql"))}`);
}

async function withScratchPostgres<T>(work: (url: string) => Promise<T>): Promise<T> {
  // Loaded only here: only `create` needs a server.
  const { startLocalPostgres } = await import("../lib/db/store/embeddedPostgres");
  const server = await startLocalPostgres({
    dir: path.join(os.tmpdir(), `assay-migration-postgres-${process.pid}`),
    persistent: false,
  });
  try {
    await server.query(`CREATE DATABASE "scratch"`);
    return await work(server.url("scratch"));
  } finally {
    await server.stop();
  }
}

function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === "deploy" && rest.length === 0) return deploy();
  if (command === "create" && rest.length <= 1) return create(rest[0]);
  if (command === "help" || command === "--help" || command === "-h") {
    console.log(USAGE);
    return;
  }
  throw new UsageError(command ? `Unknown or malformed command: ${argv.join(" ")}` : "No command given.");
}

main(process.argv.slice(2))
  .catch((error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      process.exitCode = 2;
    } else if (error instanceof MigrationError || isConfigError(error)) {
      console.error(`Error: ${(error as Error).message}`);
      process.exitCode = 1;
    } else {
      // Unexpected: keep the stack, it is what a bug report needs.
      console.error(error);
      process.exitCode = 1;
    }
  })
  // Exit with the code set above, whatever is still open (a pool's idle timer).
  .finally(() => process.exit(process.exitCode ?? 0));

// A DATABASE_URL of neither store, a file system refusal (read-only folder, no
// permission) or a PostgreSQL that refuses the connection: the message says
// everything the user can act on.
function isConfigError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return (
    error.message.startsWith("DATABASE_URL ") ||
    typeof (error as NodeJS.ErrnoException).syscall === "string" ||
    (typeof code === "string" && /^(28|3D|08)/.test(code))
  );
}
