// Offline replacement for `prisma migrate deploy` and `prisma migrate dev --create-only`:
// the Prisma CLI needs a native engine it cannot download here, so these run
// the same schema engine compiled to wasm. Run from the project root.
import path from "node:path";
import { resolveDatabaseUrl, sqliteFilePath } from "../lib/db/databaseUrl";
import { applyPendingMigrations } from "../lib/db/migrations/applyMigrations";
import { createMigration } from "../lib/db/migrations/createMigration";
import { readMigrationsDirectory } from "../lib/db/migrations/migrationsDirectory";
import { MigrationError } from "../lib/db/migrations/schemaEngine";

const USAGE = `Usage:
  tsx scripts/db.ts deploy          apply pending migrations to DATABASE_URL (default file:./data/assay.db)
  tsx scripts/db.ts create <name>   write prisma/migrations/<timestamp>_<name>/migration.sql from prisma/schema.prisma`;

class UsageError extends Error {}

async function deploy(): Promise<void> {
  const url = resolveDatabaseUrl();
  const { applied } = await applyPendingMigrations(url);
  const where = displayPath(sqliteFilePath(url));
  if (applied.length === 0) {
    const known = readMigrationsDirectory().migrationDirectories.length;
    if (known === 0) console.log("No migrations found in prisma/migrations; nothing to apply.");
    else console.log(`No pending migrations; ${where} is up to date (${known} migration(s)).`);
    return;
  }
  console.log(`Applied ${applied.length} migration(s) to ${where}:`);
  for (const name of applied) console.log(`  ${name}`);
}

async function create(name: string | undefined): Promise<void> {
  if (!name) throw new UsageError("create needs a migration name, e.g. `tsx scripts/db.ts create add_users`.");
  const { directory } = await createMigration(name);
  if (directory === null) {
    console.log("No schema changes: prisma/schema.prisma matches the migration history; nothing written.");
    return;
  }
  console.log(`Created ${displayPath(path.join(directory, "migration.sql"))}`);
  console.log("Review it, then run `npm run db:deploy` to apply it.");
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

main(process.argv.slice(2)).catch((error: unknown) => {
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
});

// A non-SQLite DATABASE_URL, or a file system refusal (read-only folder, no
// permission): the message says everything the user can act on.
function isConfigError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.message.startsWith("DATABASE_URL ") || typeof (error as NodeJS.ErrnoException).syscall === "string";
}
