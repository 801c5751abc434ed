import { sqlFragments } from "./sqlFragments";
import type { SqlRunner } from "./sqlRunner";

/**
 * The store's clock now, read once for an operation whose timestamps other
 * machines compare: a run's lease (set, renewed, found lapsed), a planning
 * lease, a run's start, finish and events, the heartbeats of an alignment's
 * measurement and of an upload, a label file's staging, a sign-in window. Workers on several machines then
 * agree on when a lease lapsed whatever their own clocks say, as they already
 * do for heartbeats (sqlFragments.storeTime). Durations a process measures
 * itself (working time, its own deadlines) stay on its own clock.
 */
export async function readStoreClock(sql: SqlRunner): Promise<Date> {
  const row = await sql.get<{ now: string }>(`SELECT ${sqlFragments(sql).storeTime()} AS "now"`);
  const now = new Date(String(row?.now));
  if (Number.isNaN(now.getTime())) throw new Error(`the store's clock read as ${String(row?.now)}`);
  return now;
}
