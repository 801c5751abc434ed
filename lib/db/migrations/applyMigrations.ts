import { ensureDatabaseDirectory } from "../databaseUrl";
import { readMigrationsDirectory } from "./migrationsDirectory";
import { describeEngineError, openSchemaEngine } from "./schemaEngine";

export const NO_FILTERS = { externalTables: [], externalEnums: [] };

/**
 * Applies the migrations in `migrationsDir` (default prisma/migrations) that
 * the database has not run yet, as `prisma migrate deploy` does, and records
 * them in `_prisma_migrations`. Creates the SQLite file and its folder if
 * missing. A second call applies nothing.
 */
export async function applyPendingMigrations(
  databaseUrl: string,
  migrationsDir?: string,
): Promise<{ applied: string[] }> {
  const migrationsList = readMigrationsDirectory(migrationsDir);
  ensureDatabaseDirectory(databaseUrl);

  const { engine, close } = await openSchemaEngine(databaseUrl);
  try {
    const { appliedMigrationNames } = await engine
      .applyMigrations({ migrationsList, filters: NO_FILTERS })
      .catch((error: unknown) => {
        throw describeEngineError(error);
      });
    return { applied: appliedMigrationNames };
  } finally {
    await close();
  }
}
