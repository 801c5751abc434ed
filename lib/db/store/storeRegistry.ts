import type pg from "pg";
import type { Dialect } from "./dialect";
import type { SqlRunner } from "./sqlRunner";

/** What lib/db knows about a client: its URL, store and raw-SQL runner. */
export type StoreInfo = {
  url: string;
  dialect: Dialect;
  runner: SqlRunner;
  pool: pg.Pool | null;
  /** Run before the client closes: what was started on it (a worker's heartbeat) stops first. */
  closeHooks: (() => Promise<void>)[];
};

// On globalThis because Next bundles lib/db more than once (pages, route handlers) while getDb() shares one client.
const stores: WeakMap<object, StoreInfo> = ((
  globalThis as unknown as { assayStores?: WeakMap<object, StoreInfo> }
).assayStores ??= new WeakMap());

export function registerStore(db: object, info: StoreInfo): void {
  stores.set(db, info);
}

export function storeOf(db: object): StoreInfo {
  const info = stores.get(db);
  if (!info) throw new Error("this Prisma client was not created by createDb()");
  return info;
}
