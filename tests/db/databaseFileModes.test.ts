// The SQLite file holds password hashes, session and OpenID tokens: a folder Assay creates for it is 0700,
// the database file and its -wal and -shm are 0600 (lib/db/databaseUrl.ts prepareDatabaseFile), and a
// folder the user chose keeps its own mode.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createDb, enableWriteAheadLog } from "@/lib/db/client";
import { closeDirectConnection, connectionFor } from "@/lib/db/store/directSqlite";
import { applyPendingMigrations } from "@/lib/db/migrations/applyMigrations";

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(mode: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-modes-"));
  fs.chmodSync(dir, mode);
  dirs.push(dir);
  return dir;
}

describe("database file modes", () => {
  it("a folder Assay creates is 0700; the file, -wal and -shm are 0600 once written through", async () => {
    const parent = tempDir(0o755);
    const file = path.join(parent, "data", "assay.db");
    const url = `file:${file}`;
    await applyPendingMigrations(url);
    const db = createDb(url);
    try {
      await enableWriteAheadLog(db);
      await db.setting.upsert({ where: { key: "probe" }, create: { key: "probe", value: "1" }, update: {} });
      connectionFor(url).prepare("SELECT 1").get();
      expect(fs.existsSync(`${file}-wal`)).toBe(true);
      expect(fs.existsSync(`${file}-shm`)).toBe(true);
      expect(modeOf(path.join(parent, "data")).toString(8)).toBe("700");
      for (const name of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(name).toString(8), name).toBe("600");
      expect(modeOf(parent).toString(8)).toBe("755"); // the folder that was there already
    } finally {
      closeDirectConnection(url);
      await db.$disconnect();
    }
  });

  it("tightens an existing database file and its -wal and -shm; leaves the user's own folder alone", async () => {
    const dir = tempDir(0o755);
    const file = path.join(dir, "assay.db");
    for (const name of [file, `${file}-wal`, `${file}-shm`]) {
      fs.writeFileSync(name, "");
      fs.chmodSync(name, 0o644);
    }
    const db = createDb(`file:${file}`);
    await db.$disconnect();
    for (const name of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(name).toString(8), name).toBe("600");
    expect(modeOf(dir).toString(8)).toBe("755");
  });
});
