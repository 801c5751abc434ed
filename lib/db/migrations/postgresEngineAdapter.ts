import { PrismaPg } from "@prisma/adapter-pg";
import {
  ColumnTypeEnum,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
} from "@prisma/driver-adapter-utils";
import pg from "pg";

/**
 * The PostgreSQL driver for the wasm schema engine, with what Prisma 7.10's
 * adapter needs to create and apply migrations offline (measured here):
 * - its own shadow database, created and dropped by us: the adapter's own
 *   path drops it while still connected, leaks it, then crashes the process
 *   on an unhandled pool error;
 * - introspection reads pg_catalog's "char" (OID 18), which the adapter
 *   cannot map: relabelled as text and reported to the engine as Character;
 * - a migration script sent whole: the adapter splits scripts on every ";",
 *   which cuts a plpgsql function body ($$ … $$) apart;
 * - connection settings as separate fields, never a connection string.
 */
export function postgresMigrationFactory(
  url: string,
  opened: SqlDriverAdapter[],
): SqlMigrationAwareDriverAdapterFactory {
  const connection = connectionFields(url);
  const factory = new PrismaPg({ ...connection, max: 2 });
  const remember = (adapter: SqlDriverAdapter) => (opened.push(adapter), adapter);
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => remember(patchQueryable(await factory.connect())),
    connectToShadowDb: async () => {
      const name = `prisma_shadow_${process.pid}_${Date.now()}`;
      await adminQuery(connection, `CREATE DATABASE "${name}"`);
      const shadow = patchQueryable(await new PrismaPg({ ...connection, database: name, max: 2 }).connect());
      const dispose = shadow.dispose.bind(shadow);
      shadow.dispose = async () => {
        await dispose();
        await adminQuery(connection, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      };
      return remember(shadow);
    },
  };
}

type ConnectionFields = { host: string; port: number; user: string; password: string; database: string };

function connectionFields(url: string): ConnectionFields {
  const parsed = new URL(url);
  // node-postgres also reads `?user=` and `?password=` (its query parameters win), and the app's own
  // connections take them: migrations must connect with the same credentials.
  const query = parsed.searchParams;
  return {
    host: decodeURIComponent(parsed.hostname),
    port: Number(parsed.port || 5432),
    user: query.get("user") ?? decodeURIComponent(parsed.username),
    password: query.get("password") ?? decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname.slice(1)) || "postgres",
  };
}

/** Runs one statement from the maintenance database (CREATE/DROP DATABASE cannot run inside the target). */
async function adminQuery(connection: ConnectionFields, sql: string): Promise<void> {
  const client = new pg.Client({ ...connection, database: "postgres" });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const CHAR_OID = 18;
const TEXT_OID = 25;

type PatchableQueryable = SqlDriverAdapter & {
  performIO(query: SqlQuery): Promise<pg.QueryResult>;
  onError(error: unknown): never;
  client: pg.Pool | pg.PoolClient;
};

function patchQueryable<T extends object>(adapter: T): T {
  const queryable = adapter as unknown as PatchableQueryable;
  const performIO = queryable.performIO.bind(queryable);
  const queryRaw = queryable.queryRaw.bind(queryable);
  const charColumns = new WeakMap<SqlQuery, number[]>();
  queryable.performIO = async (query) => {
    const result = await performIO(query);
    const indexes: number[] = [];
    result.fields?.forEach((field, index) => {
      if (field.dataTypeID === CHAR_OID) {
        field.dataTypeID = TEXT_OID;
        indexes.push(index);
      }
    });
    charColumns.set(query, indexes);
    return result;
  };
  queryable.queryRaw = async (query) => {
    const result = await queryRaw(query);
    for (const index of charColumns.get(query) ?? []) result.columnTypes[index] = ColumnTypeEnum.Character;
    return result;
  };
  if (typeof queryable.executeScript === "function") {
    queryable.executeScript = async (script: string) => {
      try {
        // The simple query protocol runs many statements in one round trip.
        await queryable.client.query(script);
      } catch (error) {
        queryable.onError(error);
      }
    };
  }
  const startTransaction = (queryable as { startTransaction?: SqlDriverAdapter["startTransaction"] }).startTransaction;
  if (typeof startTransaction === "function") {
    (queryable as SqlDriverAdapter).startTransaction = async (isolationLevel) =>
      patchQueryable(await startTransaction.call(queryable, isolationLevel));
  }
  return adapter;
}
