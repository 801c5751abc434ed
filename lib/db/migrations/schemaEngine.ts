import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
} from "@prisma/driver-adapter-utils";
import type { SchemaEngine } from "@prisma/schema-engine-wasm";
import { sqliteFilePath } from "../databaseUrl";

export type { SchemaEngine };

type SchemaEngineClass = typeof SchemaEngine;
type WasmRuntime = typeof import("@prisma/schema-engine-wasm/schema_engine_bg");

export interface SchemaFile {
  path: string;
  content: string;
}

export interface OpenedSchemaEngine {
  engine: SchemaEngine;
  /** Frees the engine and closes every SQLite handle it opened, so temp files can be deleted. */
  close(): Promise<void>;
}

let engineClass: Promise<SchemaEngineClass> | undefined;

// wasm-bindgen keeps its instance in module state: instantiating twice in one
// process breaks it ("unwrap_throw failed"), so the module is loaded once.
function loadEngineClass(): Promise<SchemaEngineClass> {
  engineClass ??= (async () => {
    const runtime: WasmRuntime = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    const require = createRequire(import.meta.url);
    const jsPath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const bytes = await fs.readFile(path.join(path.dirname(jsPath), "schema_engine_bg.wasm"));
    const instance = await WebAssembly.instantiate(await WebAssembly.compile(bytes), {
      "./schema_engine_bg.js": runtime as unknown as WebAssembly.ModuleImports,
    });
    runtime.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return runtime.SchemaEngine;
  })();
  return engineClass;
}

// better-sqlite3 prepares one statement at a time; these are the errors it
// raises for a script (several statements, or only comments).
function isNotASingleStatement(error: unknown): boolean {
  return error instanceof RangeError && /contains (more than one|no) statements?/.test(error.message);
}

// Workaround for a 7.10.0 bug: the engine replays whole migration scripts on
// the SQLite shadow database through executeRaw, which better-sqlite3 rejects.
function scriptTolerant(inner: SqlDriverAdapter): SqlDriverAdapter {
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    queryRaw: (query: SqlQuery) => inner.queryRaw(query),
    executeRaw: async (query: SqlQuery) => {
      try {
        return await inner.executeRaw(query);
      } catch (error) {
        if (query.args.length > 0 || !isNotASingleStatement(error)) throw error;
        await inner.executeScript(query.sql);
        return 0;
      }
    },
    executeScript: (script) => inner.executeScript(script),
    startTransaction: (isolationLevel) => inner.startTransaction(isolationLevel),
    getConnectionInfo: inner.getConnectionInfo?.bind(inner),
    dispose: () => inner.dispose(),
  };
}

// Tracks every connection so close() can release file handles even if the
// engine keeps them alive until garbage collection.
function trackingFactory(url: string, opened: SqlDriverAdapter[]): SqlMigrationAwareDriverAdapterFactory {
  // unixepoch-ms is how the native engine stores _prisma_migrations timestamps.
  const factory = new PrismaBetterSqlite3({ url }, { timestampFormat: "unixepoch-ms" });
  const remember = (adapter: SqlDriverAdapter) => (opened.push(adapter), adapter);
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => remember(await factory.connect()),
    connectToShadowDb: async () => remember(scriptTolerant(await factory.connectToShadowDb())),
  };
}

/**
 * Opens the wasm schema engine on a SQLite file: URL. Relative URLs resolve
 * against the current directory, as Prisma does. `schema` is needed only by
 * commands that read the Prisma schema (createMigration).
 */
export async function openSchemaEngine(databaseUrl: string, schema?: SchemaFile): Promise<OpenedSchemaEngine> {
  const Engine = await loadEngineClass();
  const opened: SqlDriverAdapter[] = [];
  const adapter = bindMigrationAwareSqlAdapterFactory(trackingFactory(`file:${sqliteFilePath(databaseUrl)}`, opened));
  const log = (message: string) => {
    if (process.env.DEBUG_SCHEMA_ENGINE) process.stderr.write(`[schema-engine] ${message}\n`);
  };
  const engine = await Engine.new(
    { datamodels: schema ? [[schema.path, schema.content]] : undefined },
    log,
    adapter,
  ).catch(async (error: unknown) => {
    await Promise.allSettled(opened.map((connection) => connection.dispose()));
    throw describeEngineError(error);
  });

  let closed = false;
  return {
    engine,
    async close() {
      if (closed) return;
      closed = true;
      engine.free();
      await Promise.allSettled(opened.map((connection) => connection.dispose()));
    },
  };
}

/** A failure the user can fix (a migration that fails, a bad name); CLIs print only its message. */
export class MigrationError extends Error {
  override name = "MigrationError";
}

/**
 * Turns what the engine throws into an Error with a readable message. The
 * engine's own errors (SchemaConnectorError, plain objects) carry a Rust span
 * trace after the message; it is dropped, keeping the migration it names.
 */
export function describeEngineError(error: unknown): Error {
  const isEngineError =
    !(error instanceof Error) ||
    error.name === "SchemaConnectorError" ||
    /^P\d{4}$/.test(String((error as { code?: unknown }).code));
  if (!isEngineError) return error;
  const raw =
    error && typeof error === "object" && "message" in error && typeof error.message === "string"
      ? error.message
      : String(error);
  const [message = raw, trace = ""] = raw.split(/\n\s*0: /, 2);
  const migration = /migration_name="([^"]+)"/.exec(trace)?.[1];
  return new MigrationError(migration ? `Migration ${migration} failed: ${message.trim()}` : message.trim());
}
