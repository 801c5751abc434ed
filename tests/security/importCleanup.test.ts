import { spawnSync } from "node:child_process";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { claimImport, discardOrphanedImports, renewImportHeartbeats } from "@/lib/db/datasets/importCleanup";
import { importOwnerId, isImportOwnerAlive } from "@/lib/server/importOwnership";
import { createTempDb } from "../support/tempDb";

/** The pid of a process that has exited (a child run to completion). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

describe("imports left by a server that is gone", () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ db, cleanup } = await createTempDb()));
  afterAll(async () => cleanup());

  /** An upload under way, owned by `owner`, whose last heartbeat was `silentMs` ago. */
  async function importing(name: string, owner: string | null, silentMs = 0): Promise<string> {
    const dataset = await db.dataset.create({ data: { name, status: "importing" } });
    if (owner) await claimImport(db, dataset.id, owner);
    if (owner && silentMs > 0)
      await db.dataset.update({
        where: { id: dataset.id },
        data: { importHeartbeatAt: new Date(Date.now() - silentMs) },
      });
    return dataset.id;
  }

  it("knows which owners are alive", () => {
    const host = os.hostname();
    expect(isImportOwnerAlive(importOwnerId())).toBe(true);
    expect(isImportOwnerAlive(`${host}:${process.pid}:other`)).toBe(false); // our pid, an earlier process
    expect(isImportOwnerAlive(`${host}:${deadPid()}:abc`)).toBe(false);
    expect(isImportOwnerAlive(`${host}:${process.ppid}:abc`)).toBe(true);
    expect(isImportOwnerAlive(`elsewhere.example:1234:abc`)).toBe(true); // only its heartbeat can tell
    expect(isImportOwnerAlive("garbage")).toBe(false);
  });

  it("discards at once those whose owner died or whose heartbeat went stale; keeps live ones and ownerless ones", async () => {
    const host = os.hostname();
    const dead = await importing("dead owner", `${host}:${deadPid()}:abc`);
    const live = await importing("this process", importOwnerId());
    const remoteFresh = await importing("remote, fresh", "elsewhere.example:1:abc");
    const remoteStale = await importing("remote, stale", "elsewhere.example:2:abc", 120_000);
    const cli = await importing("no owner (CLI)", null);
    const removed = await discardOrphanedImports(db, {
      isOwnerAlive: (owner) => isImportOwnerAlive(owner),
      staleAfterMs: 60_000,
    });
    expect(removed).toBe(2);
    const left = (await db.dataset.findMany({ select: { id: true } })).map((d) => d.id).sort();
    expect(left).toEqual([live, remoteFresh, cli].sort());
    expect(left).not.toContain(dead);
    expect(left).not.toContain(remoteStale);
  });

  it("a heartbeat renewal keeps a long import alive", async () => {
    const id = await importing("long", "elsewhere.example:3:abc", 120_000);
    expect(await renewImportHeartbeats(db, "elsewhere.example:3:abc")).toBe(1);
    await discardOrphanedImports(db, { isOwnerAlive: () => true, staleAfterMs: 60_000 });
    expect(await db.dataset.findUnique({ where: { id } })).not.toBeNull();
  });
});
