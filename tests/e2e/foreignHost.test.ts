// The laptop default (loopback, no ASSAY_AUTH_SECRET: every request acts as
// the local admin) must not be reachable from a web page. A page whose domain
// is rebound to 127.0.0.1 is same-origin with Assay under that name, and a
// tunnel on this machine forwards strangers to the loopback port; both arrive
// with their own name in Host (or X-Forwarded-Host), and proxy.ts refuses
// them before Next renders a page, runs a server action or calls a route
// handler. Requests from anywhere that change something must come from
// Assay's own pages (the POST origin check, both modes), and an https
// ASSAY_BASE_URL gets Strict-Transport-Security.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "@/lib/db/client";
import { createRun } from "@/lib/engine/createRun";
import { HEURISTIC_MODEL } from "@/lib/judges/heuristic";
import { launchChromium } from "../support/chromium";
import { toJsonl } from "../support/evalFiles";
import { startAppServer, type AppServer } from "./appServer";
import { E2E_AUTH_SECRET, encodeReply, formData, serverActionIds } from "./authSession";
import { openApp, screenshot, type OpenedApp, SUPPORT_SAMPLE } from "./helpers";

type Reply = { status: number; type: string; body: string; headers: http.IncomingHttpHeaders };
type RawRequest = { method?: string; headers?: Record<string, string>; body?: Buffer | string };

/** A request to the server's own address with any headers, Host included (fetch will not send another Host). */
function rawRequest(baseUrl: string, path: string, options: RawRequest = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL(path, baseUrl),
      { method: options.method ?? "GET", headers: options.headers ?? {} },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (text: string) => (body += text));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            type: response.headers["content-type"] ?? "",
            body,
            headers: response.headers,
          }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

/** A form action's request as Next's client sends it: the Next-Action header and React's encoding of its FormData. */
async function actionRequest(actionId: string, fields: Record<string, string>): Promise<RawRequest> {
  const encoded = new Request("http://encode.invalid", { method: "POST", body: await encodeReply([formData(fields)]) });
  return {
    method: "POST",
    headers: {
      "next-action": actionId,
      accept: "text/x-component",
      "content-type": encoded.headers.get("content-type") ?? "",
    },
    body: Buffer.from(await encoded.arrayBuffer()),
  };
}

const UPLOAD = toJsonl([{ request_id: "h1", request: "Is versioning on by default?", response: "No." }]);

async function heuristicRun(db: Db): Promise<string> {
  const sample = await db.dataset.findFirstOrThrow({ where: { name: SUPPORT_SAMPLE } });
  return createRun(db, {
    datasetId: sample.id,
    name: "host check run",
    metrics: ["response/llm_judged/safety"],
    judge: { provider: "heuristic", model: HEURISTIC_MODEL },
    concurrency: 1,
    chunkMode: "batched",
  });
}

describe("sign-in off (loopback, no secret): only requests addressed to a loopback name are served", () => {
  let app: OpenedApp;
  let server: AppServer;
  let db: Db;
  let port: string;
  let runId: string;
  let deleteRunId: string;

  beforeAll(async () => {
    app = await openApp();
    ({ server, db } = app);
    port = new URL(server.baseUrl).port;
    runId = await heuristicRun(db);
    const id = serverActionIds().get("deleteRun");
    if (!id) throw new Error("deleteRun is not in the build's server-reference-manifest");
    deleteRunId = id;
  }, 240_000);
  afterAll(async () => app?.close());

  it("a foreign Host (the issue's request) gets 403 for a page, a server action, the upload route and an export; nothing changes", async () => {
    const rebound = `evil.example:${port}`;
    // What a rebound page's own fetch sends: its name in Host and Origin, and the browser calls it same-origin.
    const asRebound = { host: rebound, origin: `http://${rebound}`, "sec-fetch-site": "same-origin" };
    const datasetsBefore = await db.dataset.count();

    const page = await rawRequest(server.baseUrl, "/datasets", { headers: { ...asRebound, accept: "text/html" } });
    expect(page.status).toBe(403);
    expect(page.type).toBe("text/html; charset=utf-8");
    expect(page.body).not.toContain("<script");
    expect(page.body).toContain(`Assay refused this request: it was addressed to ${rebound}.`);
    expect(page.body).toContain("ASSAY_AUTH_SECRET");
    expect(page.body).not.toContain("Northwind"); // no data: the sample dataset's name
    expect(page.body).not.toMatch(/\n\s+at /); // no stack

    const prefetch = await rawRequest(server.baseUrl, "/datasets", {
      headers: { ...asRebound, "next-router-prefetch": "1", rsc: "1" },
    });
    expect(prefetch.status).toBe(403);

    const action = await actionRequest(deleteRunId, { runId, confirm: "delete" });
    const actionReply = await rawRequest(server.baseUrl, `/runs/${runId}`, {
      ...action,
      headers: { ...action.headers, ...asRebound },
    });
    expect(actionReply.status).toBe(403);
    expect(JSON.parse(actionReply.body)).toEqual({ error: expect.stringContaining(`addressed to ${rebound}`) });
    expect(await db.run.count({ where: { id: runId } })).toBe(1);

    const upload = await rawRequest(server.baseUrl, "/api/datasets/upload?filename=rebound.jsonl", {
      method: "POST",
      headers: { ...asRebound, "content-type": "text/plain" },
      body: UPLOAD,
    });
    // The upload route streams its body, so the proxy leaves it alone; its guard refuses, in its own protocol.
    expect(upload.status).toBe(403);
    expect(JSON.parse(upload.body)).toMatchObject({
      type: "result",
      ok: false,
      fileError: expect.stringContaining(`addressed to ${rebound}`),
    });
    expect(await db.dataset.count()).toBe(datasetsBefore);

    const labels = await rawRequest(server.baseUrl, `/api/datasets/none/labels`, {
      method: "POST",
      headers: { ...asRebound, "content-type": "text/csv" },
      body: "request_id,metric,label\nh1,safety,yes\n",
    });
    expect(labels.status).toBe(403);
    expect(labels.body).toContain(`addressed to ${rebound}`);

    for (const path of [`/runs/${runId}/export?format=csv`, `/api/runs/${runId}/progress`]) {
      const reply = await rawRequest(server.baseUrl, path, { headers: asRebound });
      expect(reply.status, path).toBe(403);
      expect(JSON.parse(reply.body), path).toEqual({ error: expect.stringContaining("Assay refused this request") });
      expect(reply.body).not.toContain("host check run");
    }
  });

  it("a tunnel on this machine (X-Forwarded-Host of another name) is refused the same way", async () => {
    const reply = await rawRequest(server.baseUrl, "/datasets", {
      headers: { host: `127.0.0.1:${port}`, "x-forwarded-host": "abc123.ngrok-free.app", accept: "text/html" },
    });
    expect(reply.status).toBe(403);
    expect(reply.body).toContain("addressed to abc123.ngrok-free.app");
  });

  it("in Chromium, a page on a name rebound to 127.0.0.1 sees the refusal, and its own fetches are refused", async () => {
    const rebinding = await launchChromium({
      args: [
        "--host-resolver-rules=MAP evil.example 127.0.0.1",
        // Chromium 147 also blocks a public page from reaching loopback (Local Network Access); other browsers
        // do not, so the test takes it away to show what Assay itself does.
        "--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests",
      ],
    });
    try {
      const page = await rebinding.context.newPage();
      const response = await page.goto(`http://evil.example:${port}/datasets`);
      expect(response?.status()).toBe(403);
      expect(await page.locator("body").innerText()).toContain(`it was addressed to evil.example:${port}`);
      await screenshot(page, "foreign-host-refused");
      // The attack itself: the attacker's page, served from evil.example before its name was pointed here,
      // then reading and posting same-origin. The first load is answered as the attacker's server would.
      const attackPage = `http://evil.example:${port}/attack`;
      await page.route(attackPage, (route) =>
        route.fulfill({ contentType: "text/html", body: '<!doctype html><html lang="en"><title>x</title></html>' }),
      );
      await page.goto(attackPage);
      await page.unroute(attackPage);
      const attempts = await page.evaluate(async (runPath) => {
        const read = await fetch(runPath);
        const upload = await fetch("/api/datasets/upload?filename=x.jsonl", {
          method: "POST",
          body: '{"request": "q", "response": "a"}\n',
        });
        return { read: read.status, upload: upload.status, uploadBody: await upload.text() };
      }, `/runs/${runId}/export?format=json`);
      expect(attempts.read).toBe(403);
      expect(attempts.upload).toBe(403);
      expect(attempts.uploadBody).toContain("Assay refused this request");
    } finally {
      await rebinding.close();
    }
  });

  it("localhost, 127.0.0.1 and [::1] work: pages in Chromium, and every kind of request by Host", async () => {
    for (const name of ["localhost", "127.0.0.1"]) {
      await app.page.goto(`http://${name}:${port}/datasets`);
      await app.page.getByRole("heading", { name: "Datasets", level: 1 }).waitFor({ timeout: 20_000 });
    }
    // The server listens on 127.0.0.1 only: [::1] is sent there with its Host header.
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
      const page = await rawRequest(server.baseUrl, "/datasets", { headers: { host, accept: "text/html" } });
      expect(page.status, host).toBe(200);
      const exported = await rawRequest(server.baseUrl, `/runs/${runId}/export?format=csv`, { headers: { host } });
      expect(exported.status, host).toBe(200);
      const upload = await rawRequest(server.baseUrl, `/api/datasets/upload?filename=${host.length}.jsonl`, {
        method: "POST",
        headers: { host, origin: `http://${host}`, "sec-fetch-site": "same-origin", "content-type": "text/plain" },
        body: UPLOAD,
      });
      expect(upload.status, host).toBe(200);
      expect(upload.body).toContain('"ok":true');
    }
    expect(app.problems).toEqual([]);
  });

  it("a server action from another site is refused by the proxy's origin check, before Next runs it", async () => {
    const action = await actionRequest(deleteRunId, { runId, confirm: "delete" });
    const attempts: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: `http://127.0.0.1:${port}`, "sec-fetch-site": "cross-site" },
    ];
    for (const crossSite of attempts) {
      const reply = await rawRequest(server.baseUrl, `/runs/${runId}`, {
        ...action,
        headers: { ...action.headers, host: `127.0.0.1:${port}`, ...crossSite },
      });
      expect(reply.status, JSON.stringify(crossSite)).toBe(403);
      expect(JSON.parse(reply.body)).toEqual({ error: expect.stringContaining("Cross-site request refused") });
      expect(await db.run.count({ where: { id: runId } })).toBe(1);
    }
    // The same action from Assay's own page goes through.
    const own = await rawRequest(server.baseUrl, `/runs/${runId}`, {
      ...action,
      headers: { ...action.headers, host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` },
    });
    expect(own.status).toBeLessThan(400);
    await expect.poll(() => db.run.count({ where: { id: runId } })).toBe(0);
  });

  it("sends no Strict-Transport-Security without an https ASSAY_BASE_URL", async () => {
    const reply = await rawRequest(server.baseUrl, "/datasets");
    expect(reply.headers["strict-transport-security"]).toBeUndefined();
  });
});

describe("sign-in off, started without npm start's address check (npx next start, a Procfile)", () => {
  let unchecked: AppServer;
  beforeAll(async () => {
    unchecked = await startAppServer({ addressUnchecked: true });
  }, 240_000);
  afterAll(async () => unchecked?.stop());

  it("listens on every interface, so it refuses every request with 503 and why, even addressed to localhost", async () => {
    const port = new URL(unchecked.baseUrl).port;
    const reason = "was not started with `npm start`";
    const local = { host: `localhost:${port}`, origin: `http://localhost:${port}`, "sec-fetch-site": "same-origin" };
    const page = await rawRequest(unchecked.baseUrl, "/datasets", { headers: { ...local, accept: "text/html" } });
    expect(page.status).toBe(503);
    expect(page.body).toContain(reason);
    expect(page.body).not.toContain("sample-eval-set");
    const api = await rawRequest(unchecked.baseUrl, "/api/v1/runs", { headers: local });
    expect(api.status).toBe(503);
    expect(api.body).toContain(reason);
    const upload = await rawRequest(unchecked.baseUrl, "/api/datasets/upload?filename=a.jsonl&name=a", {
      method: "POST",
      headers: { ...local, "content-type": "application/octet-stream" },
      body: toJsonl([{ request: "q", response: "a" }]),
    });
    expect(upload.status).toBe(503);
    const db = createDb(unchecked.databaseUrl);
    try {
      expect(await db.dataset.count({ where: { name: "a" } })).toBe(0);
    } finally {
      await db.$disconnect();
    }
  });
});

describe("sign-in on, behind https: any Host is served (proxies), cross-site posts are not, and HSTS is sent", () => {
  let server: AppServer;

  beforeAll(async () => {
    server = await startAppServer({
      env: { ASSAY_AUTH_SECRET: E2E_AUTH_SECRET, ASSAY_BASE_URL: "https://assay.example.com" },
    });
  }, 240_000);
  afterAll(async () => server?.stop());

  it("answers a proxy's Host, refuses cross-site posts, and asks browsers for HTTPS only", async () => {
    const signin = await rawRequest(server.baseUrl, "/signin", {
      headers: { host: "assay.example.com", accept: "text/html" },
    });
    expect(signin.status).toBe(200);
    expect(signin.headers["strict-transport-security"]).toBe("max-age=31536000");
    const api = await rawRequest(server.baseUrl, "/api/runs/none/progress", { headers: { host: "assay.example.com" } });
    expect(api.headers["strict-transport-security"]).toBe("max-age=31536000");
    // The routes the proxy does not see (streamed uploads, /api/v1) send it themselves, refusals included.
    for (const path of ["/api/v1/runs", "/api/datasets/none/labels"]) {
      const answer = await rawRequest(server.baseUrl, path, { headers: { host: "assay.example.com" } });
      expect(answer.status, path).toBe(401);
      expect(answer.headers["strict-transport-security"], path).toBe("max-age=31536000");
    }

    const deleteRun = serverActionIds().get("deleteRun") ?? "";
    const action = await actionRequest(deleteRun, { runId: "none", confirm: "delete" });
    const crossSite = await rawRequest(server.baseUrl, "/runs/none", {
      ...action,
      headers: { ...action.headers, host: "assay.example.com", origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    expect(JSON.parse(crossSite.body)).toEqual({
      error: expect.stringContaining("Cross-site request refused: it comes from https://evil.example"),
    });
    const upload = await rawRequest(server.baseUrl, "/api/datasets/upload?filename=x.jsonl", {
      method: "POST",
      headers: { host: "assay.example.com", origin: "https://evil.example", "content-type": "text/plain" },
      body: UPLOAD,
    });
    expect(upload.status).toBe(403); // the route's own check: the proxy leaves the streaming upload alone
    const db = createDb(server.databaseUrl);
    try {
      expect(await db.dataset.count({ where: { name: "x" } })).toBe(0);
    } finally {
      await db.$disconnect();
    }
  });
});
