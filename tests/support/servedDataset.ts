import type { Db } from "@/lib/db/client";
import { importRows } from "./engineKit";
import type { EvalObject } from "./evalFiles";
import { startFakeOpenAIServer, type FakeOpenAIServer, type FakeServerOptions } from "./fakeOpenAIServer";
import { createTempDb } from "./tempDb";

/** A temp SQLite store holding one imported dataset. */
export type StoredDataset = { db: Db; url: string; datasetId: string; cleanup: () => Promise<void> };

export async function openDataset(rows: EvalObject[]): Promise<StoredDataset> {
  const { db, url, cleanup } = await createTempDb();
  return { db, url, datasetId: await importRows(db, rows), cleanup };
}

/** An engine test's world: a temp SQLite store holding one imported dataset, and a fake OpenAI server. */
export type ServedDataset = {
  db: Db;
  url: string;
  server: FakeOpenAIServer;
  datasetId: string;
  /** Stops the server, then deletes the store. */
  close: () => Promise<void>;
};

export async function openServedDataset(rows: EvalObject[], serverOptions: FakeServerOptions): Promise<ServedDataset> {
  const { db, url, cleanup } = await createTempDb();
  const server = await startFakeOpenAIServer(serverOptions);
  const datasetId = await importRows(db, rows);
  return {
    db,
    url,
    server,
    datasetId,
    close: async () => {
      await server.close();
      await cleanup();
    },
  };
}
