// `npm run screenshots`: the README's two screenshots, docs/images/run-page.png and docs/images/compare.png.
// It starts the real app as `npm start` does (scripts/serve.ts start --build: a build when the sources changed,
// migrations, the sample dataset on a new store, next start on 127.0.0.1) on a fresh SQLite store in a temporary
// folder, with no LLM endpoint, so the built-in offline heuristic judge judges (labelled as such on the pages).
// Through the HTTP API it uploads a second version of the sample's answers (derived below), judges both datasets
// with the Databricks suite, and photographs a run page and the compare page in the browser tests' own Chromium
// (tests/support/chromium.ts: the npm one, or CHROMIUM_PATH), 1280 wide. Everything it started is stopped and the
// temporary store removed, whatever fails. Not part of `npm test`: it writes into docs/.
// Usage: npm run screenshots [-- --out DIR]   (in a shared checkout, under the browser runs' lock:
// flock /tmp/assay-e2e.lock npm run screenshots)
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { freePort } from "../lib/db/store/postgresAdmin";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { z } from "zod";
import { launchChromium } from "../tests/support/chromium";

const ROOT = path.resolve(import.meta.dirname, "..");
const SAMPLE_FILE = path.join(ROOT, "prisma", "sample", "sample-eval-set.jsonl");
const VIEWPORT = { width: 1280, height: 800 };
/** The Databricks suite, as the run form ticks it by default. */
const METRICS = [
  "correctness",
  "relevance_to_query",
  "groundedness",
  "safety",
  "chunk_relevance",
  "context_sufficiency",
  "document_recall",
];
/** A first build on a 2-core machine takes minutes; the server then answers in seconds. */
const START_TIMEOUT_MS = 15 * 60_000;
const RUN_TIMEOUT_MS = 5 * 60_000;

const outDir = path.resolve(ROOT, argValue("--out") ?? path.join("docs", "images"));

function argValue(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

function log(message: string): void {
  console.log(`[screenshots] ${message}`);
}

const sampleRowSchema = z
  .object({
    request_id: z.string().optional(),
    response: z.string().optional(),
    expected_response: z.string().optional(),
    expected_facts: z.array(z.string()).optional(),
  })
  .passthrough();

/**
 * "Version 2" of the sample's assistant: where the sample has ground truth, it answers with it (the expected
 * response, or the expected facts as sentences), fixing the sample's deliberately flawed answers; on the third
 * row of every six that has a response it deflects instead, so the comparison shows regressions beside the
 * improvements. Rows without a response (their trace gives it) are left as they are. Rows keep their
 * request and request_id (and rows without one keep their place), so compare pairs them with the sample's.
 */
function secondVersion(sample: string): string {
  return sample
    .trim()
    .split("\n")
    .map((line, index) => {
      const row = sampleRowSchema.parse(JSON.parse(line));
      if (row.response === undefined) return line;
      let response = row.response;
      if (index % 6 === 2)
        response = "I'm sorry, I can't help with that. Please contact Northwind support for questions like this one.";
      else if (row.expected_response) response = row.expected_response;
      else if (row.expected_facts)
        response = row.expected_facts.map((fact) => (/[.!?]$/.test(fact) ? fact : `${fact}.`)).join(" ");
      return JSON.stringify({ ...row, response });
    })
    .join("\n");
}

type App = { baseUrl: string; stop: () => Promise<void> };

/** `npm start` on a free port and a new store: the same script, environment and checks a user's start has. */
async function startApp(databaseUrl: string): Promise<App> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" };
  // The offline judge, on this machine only, without sign-in: whatever the caller's shell has set.
  for (const name of Object.keys(env))
    if (/^(OPENAI_|AZURE_OPENAI_|ASSAY_)/.test(name) || name === "HOSTNAME" || name === "PORT") delete env[name];
  env.DATABASE_URL = databaseUrl;
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts", "start", "--build", "-p", `${port}`], {
    cwd: ROOT,
    env,
    detached: true, // its own process group: stop() ends the build or the server and whatever they started
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (data: Buffer) => {
    output += data.toString();
    for (const line of data.toString().split("\n")) if (line.startsWith("[assay]")) log(line);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      killGroup(child, "SIGTERM");
      const timer = setTimeout(() => killGroup(child, "SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
    killGroup(child, "SIGKILL");
  };
  process.once("exit", () => killGroup(child, "SIGKILL"));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (true) {
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}) before it answered:\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/datasets`, { signal: AbortSignal.timeout(10_000) });
      await response.arrayBuffer();
      if (response.status === 200) return { baseUrl, stop };
    } catch {
      // not listening yet (building, migrating)
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the app did not answer within ${START_TIMEOUT_MS / 60_000} minutes:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-(child.pid ?? 0), signal);
  } catch {
    // already gone
  }
}

async function api<T>(app: App, schema: z.ZodType<T>, route: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${app.baseUrl}${route}`, init);
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? "GET"} ${route}: HTTP ${response.status} ${text}`);
  return schema.parse(JSON.parse(text));
}

const datasetSchema = z.object({ id: z.string(), name: z.string(), rowCount: z.number() });
const runSchema = z.object({ id: z.string(), status: z.string(), errorMessage: z.string().nullable().optional() });

async function judge(app: App, datasetId: string, name: string, tag: string): Promise<string> {
  const run = await api(app, runSchema, "/api/v1/runs", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ datasetId, name, judge: "heuristic", metrics: METRICS, tags: [tag] }),
  });
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  while (true) {
    const now = await api(app, runSchema, `/api/v1/runs/${run.id}`);
    if (now.status === "completed") return run.id;
    if (["failed", "cancelled", "paused"].includes(now.status))
      throw new Error(`run ${name} ended ${now.status}: ${now.errorMessage ?? ""}`);
    if (Date.now() > deadline) throw new Error(`run ${name} did not finish within ${RUN_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Fails on a page that shows an error instead of results. */
async function expectNoErrorText(page: Page): Promise<void> {
  const text = await page.locator("body").innerText();
  const problem = /Internal Server Error|Application error|This page couldn.t load|TypeError|ReferenceError/i.exec(
    text,
  );
  if (problem) throw new Error(`${page.url()} shows "${problem[0]}"`);
}

/**
 * The page from its top down to the bottom of `through` (the viewport grown to that height, at most 1,400 px),
 * 1280 wide, so the picture holds what the README's caption describes and no more.
 */
async function photograph(page: Page, file: string, through: string): Promise<void> {
  await expectNoErrorText(page);
  const box = await page.locator(through).boundingBox();
  if (!box) throw new Error(`${page.url()}: ${through} is not shown`);
  const height = Math.min(1_400, Math.max(VIEWPORT.height, Math.ceil(box.y + box.height + 24)));
  await page.setViewportSize({ width: VIEWPORT.width, height });
  // Hover and focus styles off the picture: the pointer rests outside the page's content.
  await page.mouse.move(VIEWPORT.width - 1, height - 1);
  const target = path.join(outDir, file);
  await page.screenshot({ path: target, animations: "disabled" });
  await page.setViewportSize(VIEWPORT);
  log(`wrote ${path.relative(ROOT, target)} (1280 × ${height}, ${(fs.statSync(target).size / 1024).toFixed(0)} KB)`);
}

async function main(): Promise<void> {
  const started = Date.now();
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-screenshots-"));
  let app: App | undefined;
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  let page: Page | undefined;
  try {
    log("starting the app (npm start: build if needed, migrate, load the sample)…");
    app = await startApp(`file:${path.join(storeDir, "assay.db")}`);
    log(`app answers at ${app.baseUrl} after ${((Date.now() - started) / 1000).toFixed(0)} s`);

    const { datasets } = await api(app, z.object({ datasets: z.array(datasetSchema) }), "/api/v1/datasets");
    const sample = datasets.find((dataset) => dataset.name.includes("(sample)"));
    if (!sample) throw new Error(`the sample dataset was not loaded (datasets: ${JSON.stringify(datasets)})`);
    const upload = await api(
      app,
      z.object({ dataset: datasetSchema }),
      "/api/v1/datasets?filename=support-v2.jsonl&name=Northwind%20support%20assistant%20v2",
      {
        method: "POST",
        headers: { "content-type": "application/x-ndjson" },
        body: secondVersion(fs.readFileSync(SAMPLE_FILE, "utf8")),
      },
    );
    const first = await judge(app, sample.id, "support assistant v1", "model=v1");
    const second = await judge(app, upload.dataset.id, "support assistant v2", "model=v2");
    log(`judged runs ${first} and ${second}`);

    fs.mkdirSync(outDir, { recursive: true });
    browser = await launchChromium();
    page = await browser.context.newPage();
    await page.setViewportSize(VIEWPORT);

    await page.goto(`${app.baseUrl}/runs/${first}`);
    await page.locator("[data-testid=metric-cards]").waitFor();
    await page.locator("[data-testid=run-rows-table]").waitFor();
    await page.waitForLoadState("networkidle");
    await photograph(page, "run-page.png", "[data-testid=pass-rate]");

    await page.goto(`${app.baseUrl}/compare?runs=${first},${second}&baseline=${first}`);
    await page.locator("[data-testid=metric-comparison]").waitFor();
    // Score intervals are bootstrapped in the background; the page refreshes itself until they are in.
    await page.waitForFunction(
      () => !document.querySelector("[data-testid=metric-comparison]")?.textContent?.includes("computing…"),
      undefined,
      { timeout: 120_000 },
    );
    await page.waitForLoadState("networkidle");
    await photograph(page, "compare.png", "[data-testid=metric-comparison]");
    log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } catch (error) {
    // What the page showed when it failed, for whoever reads the error.
    const shot = path.join(os.tmpdir(), "assay-screenshots-failure.png");
    if (await page?.screenshot({ path: shot, fullPage: true }).catch(() => undefined))
      log(`the page as it failed: ${shot}`);
    throw error;
  } finally {
    await browser?.close();
    await app?.stop();
    fs.rmSync(storeDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`[screenshots] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
