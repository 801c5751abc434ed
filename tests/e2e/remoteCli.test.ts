// `npm run eval -- --server URL`: the CLI against a running Assay with sign-in on, through an API key in
// ASSAY_TOKEN. Nothing is stored on the CLI's side: its DATABASE_URL points at a file that must stay absent.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createApiKey } from "@/lib/auth/apiKeys";
import { createAuth } from "@/lib/auth/createAuth";
import { createDb, type Db } from "@/lib/db/client";
import { toJsonl } from "../support/evalFiles";
import { spawnEval } from "../support/spawnEval";
import { startAppServer, type AppServer } from "./appServer";
import { createUsers, E2E_AUTH_SECRET, USERS } from "./authSession";
import { tempDir, VALID_ROWS, writeFile } from "./helpers";

let server: AppServer;
let db: Db;
let token: string;
let dir: string;
let localDb: string;

beforeAll(async () => {
  server = await startAppServer({ env: { ASSAY_AUTH_SECRET: E2E_AUTH_SECRET } });
  db = createDb(server.databaseUrl);
  await createUsers(server.databaseUrl, [USERS.runner]);
  const auth = createAuth({ db, secret: E2E_AUTH_SECRET, baseURL: server.baseUrl });
  const runner = await db.user.findUniqueOrThrow({ where: { email: USERS.runner.email } });
  token = (await createApiKey(auth, { id: runner.id, role: "runner" }, { name: "CI", role: "runner" })).key;
  dir = tempDir("assay-remote-cli-");
  localDb = path.join(dir, "must-not-exist.db");
}, 240_000);

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

describe("npm run eval -- --server", () => {
  it("uploads, runs on the server with tags, follows it, prints the aggregates, and writes --out from the server", async () => {
    const file = writeFile(dir, "ci-set.jsonl", toJsonl(VALID_ROWS));
    const out = path.join(dir, "results.json");
    const env = { ASSAY_TOKEN: token, DATABASE_URL: `file:${localDb}` };
    const { code, stdout, stderr } = await spawnEval(
      [
        "--server",
        server.baseUrl,
        "--dataset",
        file,
        "--judges",
        "safety,relevance_to_query",
        "--judge-model",
        "heuristic",
        "--name",
        "from CI",
        "--tag",
        "branch=main",
        "--tag",
        "git_sha=abc123",
        "--threshold",
        "safety=0.5",
        "--out",
        out,
      ],
      env,
    ).done;
    expect(code, stderr).toBe(0);
    expect(stdout).toContain(`Uploaded ${file}: ${VALID_ROWS.length} rows`);
    expect(stdout).toMatch(/Run \S+ "from CI": completed in [\d.]+ s\. Judge: offline heuristic judge\./);
    expect(stdout).toContain("response/llm_judged/safety/rating/average");
    expect(stdout).toContain("PASS  response/llm_judged/safety/rating/average");
    // The progress bar, on stderr as locally (a line per tenth in a log).
    expect(stderr).toMatch(/judging: \d+\/\d+ \(100%\)/);
    const run = await db.run.findFirstOrThrow({ where: { name: "from CI" } });
    expect(JSON.parse(run.tags)).toEqual(["branch=main", "git_sha=abc123"]);
    expect(run.status).toBe("completed");
    expect(stdout).toContain(`${server.baseUrl}/runs/${run.id}`);
    const results = z.object({ rows: z.array(z.unknown()) }).parse(JSON.parse(fs.readFileSync(out, "utf8")));
    expect(results.rows).toHaveLength(VALID_ROWS.length);
    // Nothing was stored on the CLI's machine.
    expect(fs.existsSync(localDb)).toBe(false);
  }, 120_000);

  it("keeps the exit codes: 1 for a missed threshold, 2 for a refused key or file, each said with its place", async () => {
    const file = writeFile(dir, "again.jsonl", toJsonl(VALID_ROWS));
    const env = { ASSAY_TOKEN: token, DATABASE_URL: `file:${localDb}` };
    const base = ["--server", server.baseUrl, "--judges", "safety", "--judge-model", "heuristic", "--quiet"];
    const missed = await spawnEval([...base, "--dataset", file, "--threshold", "safety=1.01"], env).done;
    // 1.01 is refused as a threshold (at most 1): bad usage.
    expect(missed.code).toBe(2);
    // One answer about something else entirely: the offline judge finds it irrelevant, so relevance stays below 100%.
    const offTopic = writeFile(
      dir,
      "off-topic.jsonl",
      toJsonl([
        ...VALID_ROWS,
        {
          request_id: "off-topic",
          request: "What is the capital of France?",
          response: "Bananas ripen faster in a paper bag.",
        },
      ]),
    );
    const strict = await spawnEval(
      [...base, "--dataset", offTopic, "--judges", "relevance_to_query", "--threshold", "relevance_to_query=1"],
      env,
    ).done;
    expect(strict.code, strict.stderr).toBe(1);
    expect(strict.stdout).toMatch(
      /FAIL {2}response\/llm_judged\/relevance_to_query\/rating\/percentage = 0\.\d+ \(threshold 1\)/,
    );

    const badKey = await spawnEval([...base, "--dataset", file], { ...env, ASSAY_TOKEN: "assay_not-a-key" }).done;
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toContain("This API key is not valid (revoked or mistyped).");
    expect(badKey.stderr).toContain("Set ASSAY_TOKEN");
    expect(badKey.stderr).not.toContain("assay_not-a-key");

    const broken = writeFile(
      dir,
      "broken.jsonl",
      toJsonl([VALID_ROWS[0], { request_id: "x", response: "no request" }]),
    );
    const badFile = await spawnEval([...base, "--dataset", broken], env).done;
    expect(badFile.code).toBe(2);
    expect(badFile.stderr).toContain("row 2, column request:");
    expect(fs.existsSync(localDb)).toBe(false);
  }, 120_000);

  it("prints the run's agreement with the dataset's human labels, as a local run does", async () => {
    const env = { ASSAY_TOKEN: token, DATABASE_URL: `file:${localDb}` };
    const run = await db.run.findFirstOrThrow({ where: { name: "from CI" } });
    // Labels through the API, as a reviewer's export would come back: safety yes on every row but the first.
    const labels = [
      "request_id,metric,label",
      ...VALID_ROWS.map((row, i) => `${row.request_id},safety,${i === 0 ? "no" : "yes"}`),
    ].join("\n");
    const imported = await fetch(`${server.baseUrl}/api/v1/datasets/${run.datasetId}/labels`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "text/csv" },
      body: labels,
    });
    expect(imported.status, await imported.clone().text()).toBe(200);
    const { code, stdout, stderr } = await spawnEval(
      [
        "--server",
        server.baseUrl,
        "--dataset-id",
        run.datasetId,
        "--judges",
        "safety",
        "--judge-model",
        "heuristic",
        "--quiet",
      ],
      env,
    ).done;
    expect(code, stderr).toBe(0);
    expect(stdout).toContain("Agreement with human labels");
    // The offline judge finds every answer safe: it agrees on all labels but the first.
    expect(stdout).toMatch(
      new RegExp(
        `response/llm_judged/safety +${VALID_ROWS.length} +0 +${(((VALID_ROWS.length - 1) / VALID_ROWS.length) * 100).toFixed(1)} %`,
      ),
    );
    // Judge then person: yes/yes on all but the first, yes/no there.
    expect(stdout).toContain(`${VALID_ROWS.length - 1} 1 0 0`);
  }, 120_000);

  it("serves a self-contained client that plain node runs from an empty directory, named datasets and all", async () => {
    // Public, as the OpenAPI document: no key needed to download it.
    const answer = await fetch(`${server.baseUrl}/api/v1/client.mjs`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("text/javascript");
    const etag = answer.headers.get("etag");
    const code = await answer.text();
    expect(
      (await fetch(`${server.baseUrl}/api/v1/client.mjs`, { headers: { "if-none-match": etag ?? "" } })).status,
    ).toBe(304);
    // Outside the checkout: no node_modules to lean on, only the file.
    const alone = tempDir("assay-client-alone-");
    const client = path.join(alone, "assay.mjs");
    fs.writeFileSync(client, code);
    const file = writeFile(alone, "eval.jsonl", toJsonl(VALID_ROWS));
    const run = (args: string[], env: Record<string, string> = {}) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [client, ...args], {
          cwd: alone,
          env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", ...env },
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
        child.on("exit", (exit) => resolve({ code: exit, stdout, stderr }));
      });
    const done = await run(
      [
        ...["--server", server.baseUrl, "--dataset", file, "--dataset-name", "ci main 1a2b3c"],
        ...["--judges", "safety", "--judge-model", "heuristic", "--name", "served client", "--quiet"],
      ],
      { ASSAY_TOKEN: token },
    );
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/Run \S+ "served client": completed/);
    const stored = await db.run.findFirstOrThrow({ where: { name: "served client" }, include: { dataset: true } });
    expect(stored.dataset.name).toBe("ci main 1a2b3c");
    // Its usage and exit codes are the CLI's: no --server is bad usage (2), said in words.
    const usage = await run(["--dataset", file]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("give --server URL");
    expect(usage.stderr).toContain("node assay.mjs --dataset");
  }, 120_000);
});
