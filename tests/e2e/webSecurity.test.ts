// The built app over real HTTP (and one browser check): cross-site writes are
// refused, pages carry a nonce CSP and still hydrate under it, and uploads are
// bounded (a queue with a message, an idle timeout, and imports of a killed
// server discarded when the next server starts).
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createDb, type Db } from "@/lib/db/client";
import { uploadEventSchema, type UploadEvent } from "@/lib/ingest/uploadProtocol";
import { toJsonl } from "../support/evalFiles";
import { startAppServer, type AppServer } from "./appServer";
import { openApp, screenshot, tempDir, uploadThroughPage, VALID_ROWS, writeFile, type OpenedApp } from "./helpers";

const ROWS = toJsonl([
  { request_id: "s1", request: "Is versioning on by default?", response: "No." },
  { request_id: "s2", request: "How long do deleted objects stay?", response: "7 days." },
]);

type UploadReply = { status: number; events: UploadEvent[]; raw: string };

/**
 * POSTs to the upload route with node:http (which, unlike fetch, lets a test
 * set Origin and Sec-Fetch-Site, and hold the body open). `parts` are written
 * in order; `end: false` leaves the body unfinished, as a stalled client does.
 */
function upload(
  baseUrl: string,
  filename: string,
  options: { headers?: Record<string, string>; parts?: string[]; end?: boolean; onEvent?: (e: UploadEvent) => void },
): { reply: Promise<UploadReply>; request: http.ClientRequest } {
  const url = new URL(`/api/datasets/upload?filename=${encodeURIComponent(filename)}`, baseUrl);
  let request!: http.ClientRequest;
  const reply = new Promise<UploadReply>((resolve, reject) => {
    request = http.request(url, { method: "POST", headers: options.headers ?? {} }, (response) => {
      let raw = "";
      let parsed = 0;
      const events: UploadEvent[] = [];
      response.setEncoding("utf8");
      response.on("data", (text: string) => {
        raw += text;
        let newline = raw.indexOf("\n", parsed);
        while (newline !== -1) {
          const line = raw.slice(parsed, newline).trim();
          parsed = newline + 1;
          const event = uploadEventSchema.safeParse(JSON.parse(line));
          if (event.success) {
            events.push(event.data);
            options.onEvent?.(event.data);
          }
          newline = raw.indexOf("\n", parsed);
        }
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, events, raw }));
      response.on("error", reject);
    });
    request.on("error", reject);
  });
  for (const part of options.parts ?? [ROWS]) request.write(part);
  if (options.end !== false) request.end();
  return { reply, request };
}

function resultOf(reply: UploadReply): Extract<UploadEvent, { type: "result" }> {
  const result = reply.events.find((event) => event.type === "result");
  if (!result || result.type !== "result") throw new Error(`no result event in: ${reply.raw}`);
  return result;
}

describe("cross-site writes and headers", () => {
  let app: OpenedApp;
  let server: AppServer;
  let db: Db;

  beforeAll(async () => {
    app = await openApp();
    ({ server, db } = app);
  });
  afterAll(async () => app?.close());

  it("a text/plain POST from https://evil.example is refused with 403 and creates no dataset", async () => {
    const before = await db.dataset.count();
    const reply = await upload(server.baseUrl, "evil.jsonl", {
      headers: { origin: "https://evil.example", "content-type": "text/plain" },
    }).reply;
    expect(reply.status).toBe(403);
    expect(resultOf(reply)).toMatchObject({ ok: false });
    expect(resultOf(reply).fileError).toContain(
      "Cross-site request refused: it comes from https://evil.example, not from this server.",
    );
    expect(await db.dataset.count()).toBe(before);
  });

  it("Sec-Fetch-Site: cross-site is refused; the same origin is accepted", async () => {
    const before = await db.dataset.count();
    const crossSite = await upload(server.baseUrl, "x.jsonl", {
      headers: { "sec-fetch-site": "cross-site", "content-type": "text/plain" },
    }).reply;
    expect(crossSite.status).toBe(403);
    expect(resultOf(crossSite).fileError).toContain("the browser marked it cross-site");
    expect(await db.dataset.count()).toBe(before);

    const sameOrigin = await upload(server.baseUrl, "same.jsonl", {
      headers: { origin: server.baseUrl, "sec-fetch-site": "same-origin", "content-type": "application/octet-stream" },
    }).reply;
    expect(sameOrigin.status).toBe(200);
    expect(resultOf(sameOrigin)).toMatchObject({ ok: true, rowCount: 2 });
    expect(await db.dataset.count()).toBe(before + 1);
  });

  it("pages carry a fresh nonce CSP without inline script, nosniff, a referrer policy and no framing", async () => {
    const nonces: string[] = [];
    // An unknown URL too: a prerendered not-found page would carry scripts without the nonce.
    for (const page of ["/datasets", "/no-such-page"]) {
      const response = await fetch(`${server.baseUrl}${page}`);
      const html = await response.text();
      const policies = response.headers.get("content-security-policy") ?? "";
      const scriptSrc = /script-src ([^;,]+)/.exec(policies)?.[1] ?? "";
      const nonce = /'nonce-([^']+)'/.exec(scriptSrc)?.[1] ?? "";
      expect(scriptSrc).toBe(`'self' 'nonce-${nonce}' 'strict-dynamic'`);
      expect(nonce.length).toBeGreaterThanOrEqual(16);
      expect(policies).toContain("frame-ancestors 'none'");
      expect(policies).toContain("object-src 'none'");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      // Every script Next.js wrote into the page carries this response's nonce.
      const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const attrs of scripts) expect(attrs).toContain(`nonce="${nonce}"`);
      nonces.push(nonce);
    }
    expect(nonces[0]).not.toBe(nonces[1]);

    const api = await fetch(`${server.baseUrl}/api/runs/none/progress`);
    await api.arrayBuffer();
    expect(api.headers.get("x-content-type-options")).toBe("nosniff");
    expect(api.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("under the CSP the page still hydrates: an upload through the page works, with no CSP violation", async () => {
    const violations: string[] = [];
    app.page.on("console", (message) => {
      if (/Content Security Policy|Refused to (execute|load|apply)/i.test(message.text()))
        violations.push(message.text());
    });
    const file = writeFile(tempDir(), "csp-check.jsonl", toJsonl(VALID_ROWS.slice(0, 3)));
    const datasetId = await uploadThroughPage(app.page, server.baseUrl, file, "CSP check");
    expect(datasetId).toBeTruthy();
    await screenshot(app.page, "web-security-csp-hydrated");
    expect(violations).toEqual([]);
    expect(app.problems).toEqual([]);
  });
});

describe("uploads are bounded: one at a time here, a 2 s idle timeout", () => {
  let server: AppServer;
  let db: Db;

  beforeAll(async () => {
    server = await startAppServer({ env: { ASSAY_MAX_CONCURRENT_UPLOADS: "1", ASSAY_UPLOAD_IDLE_TIMEOUT_S: "2" } });
    db = createDb(server.databaseUrl);
  });
  afterAll(async () => {
    await db?.$disconnect();
    await server?.stop();
  });

  it("a stalled upload is timed out; the one behind it is told it is queued, then runs", async () => {
    const started = Date.now();
    const stalled = upload(server.baseUrl, "stalled.jsonl", {
      parts: ['{"request": "q", "response": "a"}\n{"req'],
      end: false,
    });
    // Until the stalled upload holds the only slot: its dataset exists, importing (a fixed pause raced a busy machine).
    await vi.waitFor(async () => expect(await db.dataset.count({ where: { status: "importing" } })).toBe(1), {
      timeout: 30_000,
    });
    let queuedAt = 0;
    const waiting = upload(server.baseUrl, "waiting.jsonl", {
      onEvent: (event) => {
        if (event.type === "progress" && event.queued) queuedAt ||= Date.now();
      },
    });
    const stalledReply = await stalled.reply;
    stalled.request.destroy();
    expect(resultOf(stalledReply)).toMatchObject({
      ok: false,
      fileError: "No data arrived for 2 s, so the upload was stopped. Nothing was stored; try again.",
    });
    // Not before its 2 s of silence (the message names the cause; how soon after is the machine's speed).
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);

    const waitingReply = await waiting.reply;
    const queued = waitingReply.events.find((event) => event.type === "progress" && event.queued);
    expect(queued).toMatchObject({
      type: "progress",
      queued: "Queued: 1 upload is in progress. Yours starts when one finishes.",
    });
    expect(queuedAt).toBeGreaterThan(0);
    expect(resultOf(waitingReply)).toMatchObject({ ok: true, rowCount: 2 });
    expect(await db.dataset.count({ where: { name: "stalled" } })).toBe(0);
  });
});

describe("an upload left unfinished by a killed server", () => {
  it("is discarded as soon as the next server starts", { timeout: 240_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-e2e-killed-"));
    const databaseUrl = `file:${path.join(dir, "assay.db")}`;
    const db = createDb(databaseUrl);
    let first: AppServer | undefined;
    let second: AppServer | undefined;
    try {
      first = await startAppServer({ env: { DATABASE_URL: databaseUrl } });
      const stalled = upload(first.baseUrl, "orphan.jsonl", {
        parts: ['{"request": "q", "response": "a"}\n'],
        end: false,
      });
      stalled.reply.catch(() => undefined); // the connection dies with the server
      let owner: string | null = null;
      for (let i = 0; i < 100 && !owner; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const importing = await db.dataset.findFirst({ where: { status: "importing", name: "orphan" } });
        owner = importing?.importOwner ?? null;
      }
      expect(owner).toMatch(/^.+:\d+:[0-9a-f]{8}$/);
      const pid = Number(owner?.split(":").at(-2));
      process.kill(pid, "SIGKILL"); // the process that streams the upload, with no chance to clean up
      await first.stop();
      stalled.request.destroy();
      expect(await db.dataset.count({ where: { status: "importing", name: "orphan" } })).toBe(1);

      second = await startAppServer({ env: { DATABASE_URL: databaseUrl } });
      expect(await db.dataset.count({ where: { name: "orphan" } })).toBe(0);
      expect(second.output()).toContain("[assay] discarded 1 upload(s) left unfinished by a server that is gone");
    } finally {
      await second?.stop();
      await first?.stop();
      await db.$disconnect();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
