import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { bindMigrationAwareSqlAdapterFactory, type SqlDriverAdapter } from "@prisma/driver-adapter-utils";
import type { SchemaEngine } from "@prisma/schema-engine-wasm";
import { sqliteFilePath } from "../databaseUrl";
import { dialectOfUrl } from "../store/dialect";
import { postgresMigrationFactory } from "./postgresEngineAdapter";
import { sqliteMigrationFactory } from "./sqliteEngineAdapter";

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

// On globalThis: a process may load this module twice (vitest loads each project's global setup in its own module
// graph), while the wasm runtime it instantiates is one package module that must be set up only once.
const loaded = globalThis as unknown as { assaySchemaEngineClass?: Promise<SchemaEngineClass> };

// wasm-bindgen keeps its instance in module state: instantiating twice in one
// process breaks it ("unwrap_throw failed", or "not valid utf-8" when the
// second is for the other store), so the module is loaded once for both.
function loadEngineClass(): Promise<SchemaEngineClass> {
  loaded.assaySchemaEngineClass ??= (async () => {
    // Without a registry an engine panic surfaces only as "reading 'set_message'".
    const registry = globalThis as unknown as { PRISMA_WASM_PANIC_REGISTRY?: { set_message(message: string): void } };
    registry.PRISMA_WASM_PANIC_REGISTRY ??= { set_message: () => {} };
    const runtime: WasmRuntime = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    const require = createRequire(import.meta.url);
    const jsPath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const bytes = await fs.readFile(path.join(path.dirname(jsPath), "schema_engine_bg.wasm"));
    const instance = await WebAssembly.instantiate(await WebAssembly.compile(bytes), {
      "./schema_engine_bg.js": withUnrefTimers(runtime) as unknown as WebAssembly.ModuleImports,
    });
    runtime.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return runtime.SchemaEngine;
  })();
  return loaded.assaySchemaEngineClass;
}

/**
 * The engine leaves 10 s timers behind on PostgreSQL, which would hold a CLI
 * open after its work is done: the timers it sets do not keep Node alive.
 */
function withUnrefTimers(runtime: WasmRuntime): Record<string, unknown> {
  const imports: Record<string, unknown> = { ...runtime };
  for (const name of Object.keys(runtime).filter((key) => key.startsWith("__wbg_setTimeout_"))) {
    const setTimer = (runtime as unknown as Record<string, (...args: unknown[]) => unknown>)[name];
    imports[name] = (...args: unknown[]) => {
      const timer = setTimer(...args) as { unref?: () => void } | undefined;
      timer?.unref?.();
      return timer;
    };
  }
  return imports;
}

/**
 * Opens the wasm schema engine on the store a URL names: a SQLite file:
 * URL (relative URLs resolve against the current directory, as Prisma does)
 * or a postgresql:// URL. `schema` (the datasource and models files) is
 * needed only by commands that read the Prisma schema (createMigration).
 */
export async function openSchemaEngine(databaseUrl: string, schema?: SchemaFile[]): Promise<OpenedSchemaEngine> {
  const Engine = await loadEngineClass();
  const opened: SqlDriverAdapter[] = [];
  const factory =
    dialectOfUrl(databaseUrl) === "postgresql"
      ? postgresMigrationFactory(databaseUrl, opened)
      : sqliteMigrationFactory(`file:${sqliteFilePath(databaseUrl)}`, opened);
  const adapter = bindMigrationAwareSqlAdapterFactory(factory);
  const log = (message: string) => {
    if (process.env.DEBUG_SCHEMA_ENGINE) process.stderr.write(`[schema-engine] ${message}\n`);
  };
  const engine = await Engine.new(
    // `datamodels: []` panics the engine; undefined is "no schema".
    { datamodels: schema ? schema.map((file) => [file.path, file.content] as [string, string]) : undefined },
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
