import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { closeDb, createDb, type Db } from "@/lib/db/client";
import { freePort, runStatement } from "@/lib/db/store/postgresAdmin";
import { testStore } from "../support/tempDb";

const root = path.resolve(import.meta.dirname, "../..");
const exec = promisify(execFile);

/** A store nothing has touched yet, of the kind the project tests: a file path that does not exist, or an empty database. */
async function newStore(label = "new"): Promise<{ url: string; drop: () => Promise<void> }> {
  if (testStore() === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-prepare-"));
    return {
      url: `file:${path.join(dir, `${label}.db`)}`,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const serverUrl = inject("postgresUrl");
  const name = `prepare_${label}_${process.pid}`;
  await runStatement(serverUrl, `CREATE DATABASE "${name}"`);
  return {
    url: serverUrl.replace(/\/postgres$/, `/${name}`),
    drop: () => runStatement(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/** What `npm start` and `npm run dev` run before the server: scripts/prepare-db.ts. */
function prepare(url: string) {
  return exec("node", ["--import", "tsx", "scripts/prepare-db.ts"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, ASSAY_LOAD_SAMPLE: "" },
  });
}

/** The two samples a first start loads: the support assistant (50 rows) and the ops agent with tools (40). */
const SAMPLES_LOADED = [
  { status: "ready", rowCount: 50 },
  { status: "ready", rowCount: 40 },
];

describe("preparing the store before the server starts", () => {
  let store: { url: string; drop: () => Promise<void> };
  let db: Db;

  beforeAll(async () => {
    store = await newStore();
  });
  afterAll(async () => {
    if (db) await closeDb(db);
    await store?.drop();
  });

  it("migrates a new store and loads the two sample datasets once", async () => {
    const first = await prepare(store.url);
    expect(first.stdout).toMatch(/applied \d+ migration\(s\)/);
    expect(first.stdout).toContain("loaded the sample dataset (50 rows): Northwind support assistant (sample)");
    expect(first.stdout).toContain("loaded the sample dataset (40 rows): Northwind ops agent with tools (sample)");
    db = createDb(store.url);
    const datasets = await db.dataset.findMany({
      select: { status: true, rowCount: true },
      orderBy: { rowCount: "desc" },
    });
    expect(datasets).toEqual(SAMPLES_LOADED);
    expect(await db.datasetRow.count()).toBe(90);
    // The agent sample's tool calls are real rows, read from its traces' TOOL spans.
    expect(await db.toolCall.count({ where: { kind: "called" } })).toBeGreaterThan(40);
    const password = store.url.startsWith("postgresql:") ? decodeURIComponent(new URL(store.url).password) : null;
    if (password) expect(first.stdout + first.stderr).not.toContain(password);
  });

  it("clears an upload a killed server left half-way, and loads no second sample", async () => {
    // An import begun two hours ago whose server died: it stays "importing" for ever unless removed.
    await db.dataset.create({
      data: { name: "half", status: "importing", createdAt: new Date(Date.now() - 2 * 60 * 60 * 1000) },
    });
    const again = await prepare(store.url);
    expect(again.stdout).toContain("is up to date");
    expect(again.stdout).toContain("removed 1 upload(s) interrupted by a previous shutdown");
    expect(again.stdout).not.toContain("loaded the sample");
    expect(
      await db.dataset.findMany({ select: { status: true, rowCount: true }, orderBy: { rowCount: "desc" } }),
    ).toEqual(SAMPLES_LOADED);
  });

  it("loads the sample on the first start after db:deploy made the tables, once, and not after the datasets are deleted", async () => {
    const deployed = await newStore("deployed");
    try {
      await exec("node", ["--import", "tsx", "scripts/db.ts", "deploy"], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: deployed.url },
      });
      const first = await prepare(deployed.url);
      expect(first.stdout).toContain("is up to date");
      expect(first.stdout).toContain("loaded the sample dataset (50 rows)");
      const store = createDb(deployed.url);
      try {
        await store.dataset.deleteMany({});
        const again = await prepare(deployed.url);
        expect(again.stdout).not.toContain("loaded the sample");
        expect(await store.dataset.count()).toBe(0);
      } finally {
        await closeDb(store);
      }
    } finally {
      await deployed.drop();
    }
  }, 120_000);

  it("says what to do when PostgreSQL is not there, or refuses the login, without the password", async () => {
    const failing = (url: string) =>
      prepare(url).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
    const refused = await failing(`postgresql://assay:not-this-one@127.0.0.1:${await freePort()}/assay`);
    expect(refused?.code).toBe(1);
    expect(refused?.stderr).toContain("ECONNREFUSED");
    expect(refused?.stderr).toContain("Is the PostgreSQL server in DATABASE_URL running and reachable?");
    expect(refused?.stderr).not.toContain("not-this-one");
    if (testStore() !== "postgresql") return;
    const server = new URL(inject("postgresUrl"));
    const wrongPassword = await failing(`postgresql://postgres:not-this-one@127.0.0.1:${server.port}/postgres`);
    expect(wrongPassword?.stderr).toContain("Check the user and password in DATABASE_URL.");
    expect(wrongPassword?.stderr).not.toContain("not-this-one");
    const missing = new URL(inject("postgresUrl"));
    missing.pathname = "/no_such_database";
    expect((await failing(missing.toString()))?.stderr).toContain("Create the database first");
  });
});
