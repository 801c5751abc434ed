// What `npm run db:deploy`, `npm start` and `npm run worker` print of DATABASE_URL. node-postgres reads a password
// from the URL's query as well as from its user part (pg-connection-string copies every query parameter into the
// connection's settings), and only the user part's was masked.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeDatabaseUrl } from "@/lib/db/databaseUrl";
import { startLocalPostgres, type LocalPostgres } from "@/lib/db/store/embeddedPostgres";
import { runStatement } from "@/lib/db/store/postgresAdmin";

const ROOT = path.resolve(import.meta.dirname, "../..");
const exec = promisify(execFile);

describe("a DATABASE_URL as Assay prints it", () => {
  it("hides a password given in the query, as node-postgres would use it", () => {
    const url = "postgresql://assay@db.example.com:5432/assay?password=s3cr3t-in-query&sslmode=verify-full";
    expect(describeDatabaseUrl(url)).toBe(
      "postgresql://assay@db.example.com:5432/assay?password=***&sslmode=verify-full",
    );
  });

  it("hides the user part's password and every query secret, in any case and however the name is encoded", () => {
    const shown = describeDatabaseUrl(
      "postgres://assay:userinfo-pw@db:5432/assay?PASSWORD=upper-pw&Password=mixed-pw&pass%77ord=encoded-pw" +
        "&sslpassword=key-passphrase&oauth_client_secret=oauth-secret&password=first&password=second",
    );
    for (const secret of ["userinfo-pw", "upper-pw", "mixed-pw", "encoded-pw", "key-passphrase", "oauth-secret"])
      expect(shown).not.toContain(secret);
    expect(shown).not.toMatch(/first|second/);
    expect(shown).toBe(
      "postgres://assay:***@db:5432/assay?PASSWORD=***&Password=***&pass%77ord=***" +
        "&sslpassword=***&oauth_client_secret=***&password=***&password=***",
    );
  });

  it("leaves what says where the database is as written: host, port, database, user, paths, other settings", () => {
    const url = "postgresql://assay@db:6432/team?sslmode=require&sslkey=/etc/assay/client.key&application_name=assay";
    expect(describeDatabaseUrl(url)).toBe(url);
    expect(describeDatabaseUrl("file:./data/assay.db")).toBe("file:./data/assay.db");
  });

  it("shows nothing of a URL it cannot read", () => {
    expect(describeDatabaseUrl("postgresql://assay:pw@/assay?host=/var/run/postgresql&password=x")).toBe(
      "postgresql://…",
    );
  });
});

describe("npm run db:deploy's output", () => {
  let server: LocalPostgres;
  let root: string;

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "assay-url-masking-"));
    // As root the server's user (nobody) must pass through this folder to reach its data.
    fs.chmodSync(root, 0o701);
    server = await startLocalPostgres({ dir: path.join(root, "cluster"), persistent: false });
    await server.query(`CREATE DATABASE "masked"`);
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("node-postgres logs in with a password given only in the query", async () => {
    const password = decodeURIComponent(new URL(server.url()).password);
    const queryOnly = `postgresql://postgres@127.0.0.1:${server.port}/masked?password=${encodeURIComponent(password)}`;
    await expect(runStatement(queryOnly, "SELECT 1")).resolves.toBeUndefined();
    await expect(runStatement(queryOnly.replace(/password=.*$/, "password=wrong"), "SELECT 1")).rejects.toThrow(
      /password authentication failed/,
    );
  });

  it("migrates with a password given only in the query, and names the database without it", async () => {
    const withUserPart = new URL(server.url("masked"));
    const password = decodeURIComponent(withUserPart.password);
    withUserPart.password = "";
    // As node-postgres reads it, the schema engine's connection included (lib/db/migrations/postgresEngineAdapter.ts).
    const url = `${withUserPart.toString()}?password=${encodeURIComponent(password)}&application_name=masking-check`;
    const { stdout, stderr } = await exec(process.execPath, ["--import", "tsx", "scripts/db.ts", "deploy"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url },
    });
    expect(stdout).toContain(
      `to postgresql://postgres@127.0.0.1:${server.port}/masked?password=***&application_name=masking-check`,
    );
    expect(stdout + stderr).not.toContain(password);
    expect(stdout + stderr).not.toContain(encodeURIComponent(password));
    // The migrations were applied: the app's tables are there.
    await expect(runStatement(url, `SELECT 1 FROM "Dataset" LIMIT 1`)).resolves.toBeUndefined();
  }, 120_000);
});
