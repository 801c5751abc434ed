// The HTTP API (/api/v1) on the built app with sign-in on, through API keys only: the OpenAPI document it
// serves, dataset uploads (streamed, with row- and column-placed errors), runs and their results; refusals by
// role, for a revoked key and a missing one; every JSON answer validated against the served document. A JSON
// body over the limit is refused without being read whole, the server's memory bounded.
import http from "node:http";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/apiKeys";
import type { Aggregate } from "@/lib/contract/aggregates";
import { createAuth } from "@/lib/auth/createAuth";
import { createDb, type Db } from "@/lib/db/client";
import { revokeApiKey } from "@/lib/db/accounts/apiKeyQueries";
import { createRun } from "@/lib/engine/createRun";
import { HEURISTIC_MODEL } from "@/lib/judges/heuristic";
import { toJsonl } from "../support/evalFiles";
import { startAppServer, type AppServer } from "./appServer";
import { createUsers, E2E_AUTH_SECRET, signInCookie, USERS } from "./authSession";
import { VALID_ROWS } from "./helpers";
import { peakRssDuring } from "./processMemory";

let server: AppServer;
let db: Db;
const keys: Record<"viewer" | "runner" | "revoked", string> = { viewer: "", runner: "", revoked: "" };
let validate: (path: string, method: string, status: number, body: unknown) => void;

async function call(
  path: string,
  options: { key?: string; method?: string; body?: BodyInit; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: options.method ?? "GET",
    headers: { ...(options.key ? { authorization: `Bearer ${options.key}` } : {}), ...options.headers },
    body: options.body,
  });
  const text = await response.text();
  const isJson = (response.headers.get("content-type") ?? "").includes("json");
  return { status: response.status, body: isJson ? JSON.parse(text) : text, headers: response.headers };
}

/** Calls an operation and checks its answer against the served document's schema for that status. */
async function operation(template: string, path: string, options: Parameters<typeof call>[1] = {}) {
  const answer = await call(path, options);
  if ((answer.headers.get("content-type") ?? "").includes("json"))
    validate(template, (options.method ?? "GET").toLowerCase(), answer.status, answer.body);
  return answer;
}

beforeAll(async () => {
  server = await startAppServer({ env: { ASSAY_AUTH_SECRET: E2E_AUTH_SECRET } });
  db = createDb(server.databaseUrl);
  await createUsers(server.databaseUrl, [USERS.viewer, USERS.runner]);
  const auth = createAuth({ db, secret: E2E_AUTH_SECRET, baseURL: server.baseUrl });
  const user = async (email: string) => db.user.findUniqueOrThrow({ where: { email } });
  const runner = await user(USERS.runner.email);
  const viewer = await user(USERS.viewer.email);
  keys.runner = (await createApiKey(auth, { id: runner.id, role: "runner" }, { name: "CI", role: "runner" })).key;
  keys.viewer = (await createApiKey(auth, { id: viewer.id, role: "viewer" }, { name: "dash", role: "viewer" })).key;
  const revoked = await createApiKey(auth, { id: runner.id, role: "runner" }, { name: "old", role: "runner" });
  await revokeApiKey(db, revoked.id, runner.id);
  keys.revoked = revoked.key;

  const document = await call("/api/v1/openapi.json", { key: keys.viewer });
  expect(document.status).toBe(200);
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema(document.body as object, "openapi");
  validate = (template, method, status, body) => {
    const pointer = ["paths", template, method, "responses", String(status), "content", "application/json", "schema"]
      .map((part) => part.replace(/~/g, "~0").replace(/\//g, "~1"))
      .join("/");
    const check = ajv.getSchema(`openapi#/${pointer}`);
    expect(check, `the document describes ${method.toUpperCase()} ${template} → ${status}`).toBeDefined();
    expect(check!(body), `${method.toUpperCase()} ${template} → ${status}: ${ajv.errorsText(check!.errors)}`).toBe(
      true,
    );
  };
}, 240_000);

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

describe("/api/v1 with API keys", () => {
  let datasetId: string;
  let startedRunId: string;

  it("serves its OpenAPI 3.1 document, every operation with its error answers", async () => {
    const { body } = await call("/api/v1/openapi.json", { key: keys.viewer });
    const document = body as { openapi: string; paths: Record<string, Record<string, { responses: object }>> };
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        "/api/v1/datasets",
        "/api/v1/datasets/{datasetId}",
        "/api/v1/runs",
        "/api/v1/runs/{runId}",
      ]),
    );
    expect(Object.keys(document.paths["/api/v1/datasets"].post.responses)).toEqual(
      expect.arrayContaining(["201", "401", "403", "413", "422", "429", "500"]),
    );
  });

  it("uploads a dataset from the request body and reads it back", async () => {
    const upload = await operation("/api/v1/datasets", "/api/v1/datasets?filename=ci.jsonl&name=CI%20set", {
      key: keys.runner,
      method: "POST",
      body: toJsonl(VALID_ROWS),
      headers: { "content-type": "application/x-ndjson", origin: "https://ci.example" },
    });
    expect(upload.status).toBe(201);
    const result = upload.body as { dataset: { id: string; name: string; rowCount: number } };
    expect(result.dataset).toMatchObject({ name: "CI set", rowCount: VALID_ROWS.length });
    datasetId = result.dataset.id;
    expect(upload.headers.get("location")).toBe(`/api/v1/datasets/${datasetId}`);

    const list = await operation("/api/v1/datasets", "/api/v1/datasets", { key: keys.viewer });
    expect((list.body as { datasets: { id: string }[] }).datasets.map((d) => d.id)).toContain(datasetId);
    const one = await operation("/api/v1/datasets/{datasetId}", `/api/v1/datasets/${datasetId}`, { key: keys.viewer });
    expect(one.body).toMatchObject({ id: datasetId, runCount: 0, sourceFilename: "ci.jsonl" });
    const missing = await operation("/api/v1/datasets/{datasetId}", "/api/v1/datasets/nope", { key: keys.viewer });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: "not_found" } });
  });

  it("refuses a file with problems, placing each by row and column, and stores nothing", async () => {
    const before = await db.dataset.count();
    const rows = [
      VALID_ROWS[0],
      { request_id: "r2", response: "no request here" },
      { ...VALID_ROWS[1], expected_facts: "not a list" },
    ];
    const bad = await operation("/api/v1/datasets", "/api/v1/datasets?filename=bad.jsonl", {
      key: keys.runner,
      method: "POST",
      body: toJsonl(rows),
    });
    expect(bad.status).toBe(422);
    const error = (bad.body as { error: { code: string; message: string; issues: { row: number; column?: string }[] } })
      .error;
    expect(error.code).toBe("invalid_upload");
    expect(error.message).toMatch(/nothing was stored/);
    expect(error.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ row: 2, column: "request" }),
        expect.objectContaining({ row: 3, column: "expected_facts" }),
      ]),
    );
    expect(await db.dataset.count()).toBe(before);
    const badQuery = await operation("/api/v1/datasets", "/api/v1/datasets?filename=x.jsonl&mode=lenient", {
      key: keys.runner,
      method: "POST",
      body: "{}",
    });
    expect(badQuery.status).toBe(400);
    expect(badQuery.body).toMatchObject({ error: { code: "invalid_request", issues: [{ field: "mode" }] } });
  });

  it("refuses by role, a revoked key, no key, and a browser session's cross-site request", async () => {
    const asViewer = await operation("/api/v1/datasets", "/api/v1/datasets?filename=v.jsonl", {
      key: keys.viewer,
      method: "POST",
      body: toJsonl(VALID_ROWS),
    });
    expect(asViewer.status).toBe(403);
    expect(asViewer.body).toMatchObject({
      error: {
        code: "forbidden",
        message: "This API key's role (viewer) cannot upload datasets; it needs a runner or an admin.",
      },
    });
    const revoked = await operation("/api/v1/runs", "/api/v1/runs", { key: keys.revoked });
    expect(revoked.status).toBe(401);
    expect(revoked.body).toMatchObject({ error: { code: "unauthorized" } });
    const none = await operation("/api/v1/runs", "/api/v1/runs");
    expect(none.status).toBe(401);
    // A signed-in browser's cookie, sent by a page on another site: refused before anything is read.
    const cookie = await signInCookie(server.baseUrl, USERS.runner);
    const crossSite = await operation("/api/v1/datasets", "/api/v1/datasets?filename=x.jsonl", {
      method: "POST",
      body: toJsonl(VALID_ROWS),
      headers: { cookie, origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    expect(await db.dataset.count({ where: { sourceFilename: "x.jsonl" } })).toBe(0);
  });

  it("lists runs by dataset, status and tag, and reads one with its progress, aggregates and results", async () => {
    const runId = await createRun(db, {
      datasetId,
      name: "API run",
      tags: ["branch=main", "git_sha=abc123"],
      metrics: ["response/llm_judged/safety"],
      judge: { provider: "heuristic", model: HEURISTIC_MODEL },
      concurrency: 1,
      chunkMode: "batched",
    });
    const byTag = await operation("/api/v1/runs", `/api/v1/runs?datasetId=${datasetId}&tag=branch%3Dmain`, {
      key: keys.viewer,
    });
    expect((byTag.body as { runs: { id: string; tags: string[] }[] }).runs).toEqual([
      expect.objectContaining({ id: runId, tags: ["branch=main", "git_sha=abc123"], url: `/runs/${runId}` }),
    ]);
    const otherTag = await operation("/api/v1/runs", "/api/v1/runs?tag=branch%3Dmai", { key: keys.viewer });
    expect((otherTag.body as { runs: unknown[] }).runs).toEqual([]);
    const badStatus = await operation("/api/v1/runs", "/api/v1/runs?status=done", { key: keys.viewer });
    expect(badStatus.status).toBe(400);

    const run = await operation("/api/v1/runs/{runId}", `/api/v1/runs/${runId}`, { key: keys.viewer });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({
      id: runId,
      metrics: ["response/llm_judged/safety"],
      progress: { judgments: { total: VALID_ROWS.length }, fractionDone: expect.any(Number) },
      // Agent Evaluation names the safety aggregate .../rating/average (the other yes/no judges: .../rating/percentage).
      aggregates: [expect.objectContaining({ name: "response/llm_judged/safety/rating/average" })],
    });
    // The app's own worker judges the run as soon as it sees it, so it may be anywhere from none to all done:
    // every row is counted once, as pending (or being judged), judged, errored or skipped.
    const [safety] = (run.body as { aggregates: Aggregate[] }).aggregates;
    expect(safety.pending + safety.denominator + safety.errors + safety.skipped).toBe(VALID_ROWS.length);
    const results = await operation("/api/v1/runs/{runId}/results", `/api/v1/runs/${runId}/results`, {
      key: keys.viewer,
    });
    expect(results.status).toBe(200);
    expect((results.body as { rows: unknown[] }).rows).toHaveLength(VALID_ROWS.length);
    const csv = await call(`/api/v1/runs/${runId}/results?format=csv`, { key: keys.viewer });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(String(csv.body).split("\n")[0]).toContain("request_id");
    const missing = await operation("/api/v1/runs/{runId}", "/api/v1/runs/nope", { key: keys.viewer });
    expect(missing.status).toBe(404);
  });

  it("starts a run with the run form's configuration, follows it to the end, exports it, and refuses to cancel it then", async () => {
    const body = JSON.stringify({
      datasetId,
      name: "API-started",
      tags: ["branch=main"],
      metrics: ["safety", "relevance_to_query"],
      judge: "heuristic",
      concurrency: 2,
    });
    const json = { "content-type": "application/json" };
    const asViewer = await operation("/api/v1/runs", "/api/v1/runs", {
      key: keys.viewer,
      method: "POST",
      body,
      headers: json,
    });
    expect(asViewer.status).toBe(403);
    const invalid = await operation("/api/v1/runs", "/api/v1/runs", {
      key: keys.runner,
      method: "POST",
      body: JSON.stringify({ datasetId, judge: "heuristic", metrics: ["no_such_judge"], budget: { calls: -1 } }),
      headers: json,
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ error: { code: "invalid_request", issues: [{ field: "budget.calls" }] } });
    const unknownMetric = await operation("/api/v1/runs", "/api/v1/runs", {
      key: keys.runner,
      method: "POST",
      body: JSON.stringify({ datasetId, judge: "heuristic", metrics: ["no_such_judge"] }),
      headers: json,
    });
    expect(unknownMetric.status).toBe(400);
    expect(JSON.stringify(unknownMetric.body)).toContain('unknown metric \\"no_such_judge\\"');

    const started = await operation("/api/v1/runs", "/api/v1/runs", {
      key: keys.runner,
      method: "POST",
      body,
      headers: json,
    });
    expect(started.status).toBe(201);
    const run = started.body as { id: string; metrics: string[]; tags: string[] };
    startedRunId = run.id;
    expect(run.metrics).toEqual(["response/llm_judged/safety", "response/llm_judged/relevance_to_query"]);
    expect(run.tags).toEqual(["branch=main"]);
    let detail: {
      status: string;
      progress: { fractionDone: number };
      aggregates: { name: string; value: number | null }[];
    };
    const deadline = Date.now() + 60_000;
    do {
      await new Promise((resolve) => setTimeout(resolve, 250));
      detail = (await operation("/api/v1/runs/{runId}", `/api/v1/runs/${run.id}`, { key: keys.viewer }))
        .body as typeof detail;
    } while (detail.status !== "completed" && Date.now() < deadline);
    expect(detail.status).toBe("completed");
    expect(detail.progress.fractionDone).toBe(1);
    expect(detail.aggregates.map((a) => a.name)).toEqual([
      "response/llm_judged/safety/rating/average",
      "response/llm_judged/relevance_to_query/rating/percentage",
    ]);
    expect(detail.aggregates.every((a) => typeof a.value === "number")).toBe(true);
    const results = await operation("/api/v1/runs/{runId}/results", `/api/v1/runs/${run.id}/results`, {
      key: keys.viewer,
    });
    const rows = (results.body as { rows: Record<string, unknown>[] }).rows;
    expect(rows).toHaveLength(VALID_ROWS.length);
    expect(rows[0]).toHaveProperty("response/llm_judged/safety/rating");
    const cancel = await operation("/api/v1/runs/{runId}/cancel", `/api/v1/runs/${run.id}/cancel`, {
      key: keys.runner,
      method: "POST",
    });
    expect(cancel.status).toBe(409);
    expect(cancel.body).toMatchObject({ error: { code: "conflict" } });
  }, 90_000);

  it("compares two runs with the paired tests and their verdicts, and refuses what a finished run cannot do", async () => {
    const json = { "content-type": "application/json" };
    const again = await operation("/api/v1/runs", "/api/v1/runs", {
      key: keys.runner,
      method: "POST",
      body: JSON.stringify({
        datasetId,
        name: "API-started again",
        metrics: ["safety", "relevance_to_query"],
        judge: "heuristic",
      }),
      headers: json,
    });
    const candidate = (again.body as { id: string }).id;
    const deadline = Date.now() + 60_000;
    while (
      (await call(`/api/v1/runs/${candidate}`, { key: keys.viewer }).then(
        (r) => (r.body as { status: string }).status,
      )) !== "completed"
    ) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const compared = await operation("/api/v1/compare", `/api/v1/compare?runs=${startedRunId},${candidate}&flips=5`, {
      key: keys.viewer,
    });
    expect(compared.status).toBe(200);
    const comparison = compared.body as {
      baselineId: string;
      statistics: {
        metric: string;
        test: string;
        verdict: string;
        paired_rows: number;
        delta: number;
        words: string;
      }[];
      flips: unknown[];
      url: string;
    };
    expect(comparison.baselineId).toBe(startedRunId);
    // The same offline judge on the same rows: every verdict equal, so no flip and no real change.
    expect(comparison.statistics.map((m) => [m.metric, m.test, m.paired_rows, m.delta])).toEqual([
      ["response/llm_judged/safety", "exact_mcnemar", VALID_ROWS.length, 0],
      ["response/llm_judged/relevance_to_query", "exact_mcnemar", VALID_ROWS.length, 0],
    ]);
    expect(comparison.statistics.every((m) => m.verdict === "noise")).toBe(true);
    expect(comparison.flips).toEqual([]);
    expect(comparison.url).toBe(`/compare?runs=${startedRunId},${candidate}&baseline=${startedRunId}`);
    // Holm's correction by default, over the two metrics tested; an unknown one is refused, naming the others.
    expect(compared.body).toMatchObject({ correction: "holm" });
    expect((compared.body as { statistics: { family_size: number }[] }).statistics[0].family_size).toBe(2);
    const bogus = await operation(
      "/api/v1/compare",
      `/api/v1/compare?runs=${startedRunId},${candidate}&correction=sidak`,
      {
        key: keys.viewer,
      },
    );
    expect(bogus.status).toBe(400);
    expect(JSON.stringify(bogus.body)).toContain("correction must be one of holm, bh, none");
    const one = await operation("/api/v1/compare", `/api/v1/compare?runs=${startedRunId}`, { key: keys.viewer });
    expect(one.status).toBe(400);
    const missing = await operation("/api/v1/compare", `/api/v1/compare?runs=${startedRunId},nope`, {
      key: keys.viewer,
    });
    expect(missing.status).toBe(404);

    const resume = await operation("/api/v1/runs/{runId}/resume", `/api/v1/runs/${candidate}/resume`, {
      key: keys.runner,
      method: "POST",
    });
    expect(resume.status).toBe(409);
    const rejudge = await operation("/api/v1/runs/{runId}/rejudge", `/api/v1/runs/${candidate}/rejudge`, {
      key: keys.runner,
      method: "POST",
      body: JSON.stringify({ which: "errored" }),
      headers: json,
    });
    expect(rejudge.status).toBe(409);
    expect(rejudge.body).toMatchObject({
      error: { code: "conflict", message: "The run has no errored judgments to re-judge." },
    });
  }, 90_000);

  it("imports labels all or nothing, placing each problem, and exports them keyed by request_id", async () => {
    const path = `/api/v1/datasets/${datasetId}/labels`;
    const template = "/api/v1/datasets/{datasetId}/labels";
    const empty = await operation(template, path, { key: keys.viewer });
    expect(empty.body).toEqual([]);
    const csv = { "content-type": "text/csv" };
    const bad = await operation(template, path, {
      key: keys.runner,
      method: "POST",
      body: "request_id,metric,label\nq-01,safety,yes\nno-such-row,safety,no\nq-02,safety,maybe\n",
      headers: csv,
    });
    expect(bad.status).toBe(422);
    expect((bad.body as { error: { issues: { row: number; column?: string }[] } }).error.issues).toEqual([
      expect.objectContaining({ row: 2, column: "request_id" }),
      expect.objectContaining({ row: 3, column: "label" }),
    ]);
    expect((await call(path, { key: keys.viewer })).body).toEqual([]);
    const asViewer = await operation(template, path, {
      key: keys.viewer,
      method: "POST",
      body: "request_id,metric,label\nq-01,safety,yes\n",
      headers: csv,
    });
    expect(asViewer.status).toBe(403);
    const good = await operation(template, path, {
      key: keys.runner,
      method: "POST",
      body: "request_id,metric,label\nq-01,safety,yes\nq-02,safety,no\n",
      headers: csv,
    });
    expect(good.status).toBe(200);
    expect(good.body).toEqual({ ok: true, records: 2, changed: 2 });
    const exported = (await operation(template, path, { key: keys.viewer })).body as {
      request_id: string;
      label: string;
      labelled_by: string;
    }[];
    expect(exported.map((label) => [label.request_id, label.label])).toEqual([
      ["q-01", "yes"],
      ["q-02", "no"],
    ]);
    // Imported with a key, the labels are credited to the key's owner.
    expect(exported.every((label) => label.labelled_by === USERS.runner.email)).toBe(true);
    const asCsv = await call(`${path}?format=csv`, { key: keys.viewer });
    expect(String(asCsv.body).split(/\r?\n/)[0]).toBe(
      "request_id,metric,chunk_position,label,labelled_by,labelled_at,stated_by,reason",
    );
    // The run judged safety on these rows: its agreement with the two labels, as the CLI prints it.
    const agreement = await operation("/api/v1/runs/{runId}/agreement", `/api/v1/runs/${startedRunId}/agreement`, {
      key: keys.viewer,
    });
    expect(agreement.status).toBe(200);
    const judges = (agreement.body as { judges: { metric: string; labelled: number; errors: number }[] }).judges;
    const safety = judges.find((judge) => judge.metric === "response/llm_judged/safety");
    expect(safety!.labelled + safety!.errors).toBe(2);
    const missing = await operation("/api/v1/runs/{runId}/agreement", "/api/v1/runs/nope/agreement", {
      key: keys.viewer,
    });
    expect(missing.status).toBe(404);
  });

  it("lists the judging processes, the web server among them", async () => {
    const list = async () => {
      const listed = await operation("/api/v1/workers", "/api/v1/workers", { key: keys.viewer });
      return (listed.body as { workers: { kind: string; state: string; completed: number }[] }).workers;
    };
    // The web server judged the runs above: it is live, and counted what it wrote (a count its heartbeat
    // stores, so it may take a beat to show).
    expect(await list()).toEqual(expect.arrayContaining([expect.objectContaining({ kind: "web", state: "live" })]));
    await expect
      .poll(async () => (await list()).find((worker) => worker.kind === "web")?.completed ?? 0, { timeout: 15_000 })
      .toBeGreaterThan(0);
  });
});

describe("a JSON body over the limit", () => {
  const MB = 1024 * 1024;

  it("~300 MB streamed to POST /api/v1/runs (no Content-Length) is refused with 413, the server's memory bounded", async () => {
    const total = 300 * MB;
    let sent = 0;
    const piece = new TextEncoder().encode("a".repeat(MB));
    // A JSON string that never ends, sent chunked: only counting the bytes as they come can stop it.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= total) return controller.close();
        const chunk = sent === 0 ? new TextEncoder().encode('{"datasetId": "') : piece;
        controller.enqueue(chunk);
        sent += chunk.length;
      },
    });
    const { result, peak } = await peakRssDuring(server.pid, async () => {
      const response = await fetch(`${server.baseUrl}/api/v1/runs`, {
        method: "POST",
        headers: { authorization: `Bearer ${keys.runner}`, "content-type": "application/json" },
        body,
        duplex: "half",
      } as RequestInit);
      return { status: response.status, body: (await response.json()) as unknown };
    });
    console.log(`300 MB JSON body: server peak RSS ${(peak / MB).toFixed(0)} MB, ${(sent / MB).toFixed(0)} MB sent`);
    expect(result.status).toBe(413);
    expect(result.body).toMatchObject({
      error: { code: "payload_too_large", message: expect.stringMatching(/over the 4\.0 MB limit/) },
    });
    validate("/api/v1/runs", "post", 413, result.body);
    expect(peak).toBeLessThan(600 * MB);
  });

  it("a declared Content-Length over the limit is refused before any of the body is sent", async () => {
    // Headers only: the body never comes, so only an answer from the declared size can end the request.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(`${server.baseUrl}/api/v1/runs`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${keys.runner}`,
          "content-type": "application/json",
          "content-length": String(300 * MB),
        },
        timeout: 15_000,
      });
      request.on("timeout", () => request.destroy(new Error("no answer before the body was sent")));
      request.on("error", reject);
      request.on("response", (response) => {
        let text = "";
        response.on("data", (data) => (text += data));
        response.on("end", () => {
          resolve({ status: response.statusCode ?? 0, body: text });
          request.destroy();
        });
      });
      request.flushHeaders();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: "payload_too_large" } });
  });
});
