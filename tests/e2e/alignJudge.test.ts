// Aligning judges with their labels in Chromium on the built app, through the fake OpenAI server that answers
// like the closest labelled example in its prompt (and "yes", or a G-Eval judge's top score, without examples):
// a run with a built-in judge, a custom judge and a G-Eval judge, each labelled "no" on the rude rows their
// default answers miss; Align from the agreement panel, a guidance draft read and edited, the measurement's
// progress, the held-out comparison, Adopt, and a run started with the aligned judge from the run form.
import type { Page } from "playwright-core";
import fs from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { toJsonl } from "../support/evalFiles";
import { spawnEval } from "../support/spawnEval";
import { isRudeRow, labelRudeReplies, supportReplies } from "../support/supportReplies";
import { FAKE_GUIDANCE, fakeExampleFollower } from "../support/fakeExampleFollower";
import type { AppServer } from "./appServer";
import { openAppWithFakeLlm, type FakeLlmApp } from "./fakeLlmApp";
import {
  expectNoCrashText,
  screenshot,
  tempDir,
  uploadThroughPage,
  waitForEffects,
  waitForHydration,
  writeFile,
} from "./helpers";

const RELEVANCE = "response/llm_judged/relevance_to_query";
const TONE = "response/llm_judged/tone";
const POLITENESS = "response/llm_judged/g_eval/politeness";
const ALIGNED_RELEVANCE = "response/llm_judged/relevance_to_query_aligned_v1";
const ROWS = 30;

const rows = supportReplies(ROWS);

let app: FakeLlmApp;
let server: AppServer;
let db: Db;
let page: Page;
let problems: string[];

beforeAll(async () => {
  // Two attempts a call, so a failing endpoint fails a measurement quickly.
  app = await openAppWithFakeLlm({
    responder: fakeExampleFollower,
    latencyMs: 20,
    env: { ASSAY_LLM_MAX_ATTEMPTS: "2" },
  });
  ({ server, db, page, problems } = app);
});

afterAll(async () => {
  await app?.close();
});

describe("aligning a judge with its labels, proved on rows it never saw", () => {
  let runId = "";
  let datasetId = "";

  it("runs a built-in, a custom and a G-Eval judge, and the rows are labelled (two by hand)", async () => {
    const file = writeFile(tempDir(), "rows.jsonl", toJsonl(rows));
    datasetId = await uploadThroughPage(page, server.baseUrl, file, "Support replies");
    await page.goto(`${server.baseUrl}/datasets/${datasetId}/runs/new`);
    await waitForHydration(page, "[data-testid=run-form] button[type=submit]");
    const ticked = page.locator("[data-testid=run-form] input[name=metrics]:checked");
    while ((await ticked.count()) > 0) await ticked.first().uncheck();
    await page.locator(`[data-testid=run-form] input[name=metrics][value="${RELEVANCE}"]`).check();
    await page.getByRole("button", { name: "+ Add a custom judge" }).click();
    await page.getByLabel("assessment_name").fill("tone");
    await page.getByLabel("Instructions: what earns a yes").fill("The response is polite and helpful.");
    await page.getByRole("button", { name: "+ Add a G-Eval judge" }).click();
    await page.getByLabel("G-Eval name").fill("politeness");
    await page.getByLabel("G-Eval criteria").fill("Politeness: the reply treats the user with respect.");
    await page.getByPlaceholder("gpt-4.1 + reranker v2").fill("Base judges");
    await page.getByRole("button", { name: "Start run" }).click();
    await page.waitForURL((url) => /^\/runs\/[^/]+$/.test(url.pathname));
    await page.locator("[data-testid=run-status]", { hasText: "completed" }).waitFor({ timeout: 90_000 });
    runId = new URL(page.url()).pathname.split("/").at(-1) ?? "";
    // Two rows labelled by hand on the drill-down (a rude one "no", a polite one "yes"), the rest from the store.
    const firstTwo = await db.judgmentItem.findMany({
      where: { runId, metric: RELEVANCE, row: { rowNumber: { in: [1, 2] } } },
      select: { rowId: true, row: { select: { rowNumber: true } } },
      orderBy: { row: { rowNumber: "asc" } },
    });
    for (const { rowId, row } of firstTwo) {
      await page.goto(`${server.baseUrl}/runs/${runId}/rows/${rowId}`);
      await waitForHydration(page, "[data-testid=label-controls] button");
      await waitForEffects(page);
      const line = page.locator(`[data-testid=label-controls] li[data-label-target="relevance_to_query"]`);
      await page.keyboard.press((await line.locator("kbd").innerText()).trim());
      await page.keyboard.press(isRudeRow(row.rowNumber) ? "n" : "y");
      await expect
        .poll(() => line.locator("[data-testid=current-label]").innerText(), { timeout: 10_000 })
        .toBe(isRudeRow(row.rowNumber) ? "label: no (disagrees)" : "label: yes");
      if (!isRudeRow(row.rowNumber)) continue;
      // The reviewer says why: an aligned judge's example shows the reason with the label.
      await line.locator("[data-testid=label-reason] summary").click();
      await line.locator("[data-testid=label-reason] input[name=reason]").fill("It brushes the customer off.");
      await line.getByRole("button", { name: "Save reason" }).click();
      await expect
        .poll(() => line.locator("[data-testid=label-reason] summary").innerText(), { timeout: 10_000 })
        .toBe("reason: It brushes the customer off.");
      await screenshot(page, "89-label-with-reason");
    }
    await labelRudeReplies(db, datasetId, { ratings: [RELEVANCE, TONE], scores: [POLITENESS] });
    // The same answer written again without a reason keeps the reason given by hand.
    const byHand = await db.humanLabel.findFirstOrThrow({
      where: { metric: RELEVANCE, row: { datasetId, rowNumber: 2 } },
      select: { rating: true, reason: true },
    });
    expect(byHand).toEqual({ rating: "no", reason: "It brushes the customer off." });
  }, 150_000);

  it("offers Align beside each labelled judge on the agreement panel", async () => {
    await page.goto(`${server.baseUrl}/runs/${runId}`);
    const panel = page.locator("[data-testid=agreement-panel]");
    await panel.waitFor();
    for (const metric of [RELEVANCE, TONE, POLITENESS])
      expect(await panel.locator(`tr[data-metric="${metric}"] [data-testid=align-judge]`).count()).toBe(1);
    await screenshot(page, "90-agreement-panel-align");
    await panel.locator(`tr[data-metric="${RELEVANCE}"] [data-testid=align-judge]`).click();
    await page.waitForURL((url) => url.pathname === `/runs/${runId}/align`);
    await waitForHydration(page, "[data-testid=start-alignment]");
  });

  it("shows the labels, the split and the estimate before anything is spent", async () => {
    const preview = await page.locator("[data-testid=alignment-preview]").innerText();
    expect(preview).toContain("15 / 15");
    // 40 % held out, stratified: 6 of each label.
    expect(preview).toMatch(/Held out \(never shown\)\s*12/);
    expect(preview).toMatch(/Training \(examples from it\)\s*18 \(\d+ shown\)/);
    expect(await page.locator("[data-testid=alignment-estimate]").innerText()).toContain(
      "12 LLM calls to fake-judge (one per held-out row",
    );
  });

  it("drafts guidance in one call, which the user edits before aligning", async () => {
    const before = app.fake.requests.length;
    await page.locator("[data-testid=draft-guidance]").click();
    const field = page.locator("[data-testid=alignment-guidance]");
    await expect.poll(() => field.inputValue()).toBe(FAKE_GUIDANCE);
    expect(app.fake.requests.length - before).toBe(1);
    await field.fill(`${FAKE_GUIDANCE} Dismissive replies are off topic.`);
    await screenshot(page, "91-align-page");
  });

  it("measures the aligned version with a progress bar, then shows the held-out comparison", async () => {
    // Slow answers, so the measurement is seen under way: 12 calls, 8 at a time (the run's concurrency).
    app.fake.setBehaviour({ latencyMs: 1500 });
    await page.locator("[data-testid=start-alignment]").click();
    await page.waitForURL((url) => url.pathname.startsWith("/alignments/"));
    expect(await page.locator("[data-testid=alignment-title]").innerText()).toBe("relevance_to_query_aligned_v1");
    const bar = page.locator("[data-testid=alignment-progress] [role=progressbar]");
    await bar.waitFor();
    expect(Number(await bar.getAttribute("aria-valuenow"))).toBeLessThan(100);
    await screenshot(page, "92-alignment-measuring");
    app.fake.setBehaviour({ latencyMs: 20 });
    await page.locator("[data-testid=alignment-status]", { hasText: "measured" }).waitFor({ timeout: 60_000 });
    const verdict = await page.locator("[data-testid=alignment-verdict]").innerText();
    expect(verdict).toContain("agrees more (real)");
    expect(verdict).toContain("on 12 held-out rows both versions judged");
    const table = await page.locator("[data-testid=alignment-comparison-table]").innerText();
    // The original says yes to every row: κ 0 with no interval, half the rows right; the aligned version all.
    expect(table).toContain('Original\t0.00 (no interval: the judge said "yes" on every labelled row)\t50.0%');
    expect(table).toMatch(/Aligned\t1\.00 \(no interval[^\t]*\)\t100\.0%/);
    expect(await page.locator("[data-testid=alignment-paired-test]").innerText()).toContain(
      "only the aligned version on 6, only the original on 0",
    );
    expect(await page.locator("[data-testid=alignment-examples]").innerText()).toContain(
      "Dismissive replies are off topic.",
    );
    await expectNoCrashText(page);
    await screenshot(page, "93-alignment-measured");
  });

  it("adopting opens the run form with the aligned judge chosen; the run uses it", async () => {
    await page.locator("[data-testid=adopt-alignment]").click();
    await page.waitForURL((url) => url.pathname === `/datasets/${datasetId}/runs/new`);
    await waitForHydration(page, "[data-testid=run-form] button[type=submit]");
    const box = page.locator("[data-testid=aligned-judges] input[name=alignedJudges]");
    expect(await box.count()).toBe(1);
    expect(await box.isChecked()).toBe(true);
    const ticked = page.locator("[data-testid=run-form] input[name=metrics]:checked");
    while ((await ticked.count()) > 0) await ticked.first().uncheck();
    await waitForEffects(page);
    await screenshot(page, "94-run-form-aligned-judge");
    await page.getByPlaceholder("gpt-4.1 + reranker v2").fill("Aligned relevance");
    await page.getByRole("button", { name: "Start run" }).click();
    await page.waitForURL((url) => /^\/runs\/[^/]+$/.test(url.pathname));
    await page.locator("[data-testid=run-status]", { hasText: "completed" }).waitFor({ timeout: 90_000 });
    const alignedRun = new URL(page.url()).pathname.split("/").at(-1) ?? "";
    const judgments = await db.judgmentItem.findMany({
      where: { runId: alignedRun },
      select: { metric: true, rating: true, promptVersion: true, row: { select: { rowNumber: true } } },
    });
    expect(judgments).toHaveLength(ROWS);
    expect(new Set(judgments.map((j) => j.metric))).toEqual(new Set([ALIGNED_RELEVANCE]));
    expect(judgments.every((j) => /^relevance_to_query\/v4\+aligned\/[0-9a-f]{12}$/.test(j.promptVersion ?? ""))).toBe(
      true,
    );
    expect(judgments.every((j) => j.rating === (isRudeRow(j.row.rowNumber) ? "no" : "yes"))).toBe(true);
    // The run names its aligned judge and links its proof, in place of agreement figures that would flatter it.
    const aligned = page.locator("[data-testid=run-aligned-judges]");
    expect(await aligned.innerText()).toContain(
      "relevance_to_query_aligned_v1 aligned relevance_to_query: agrees more (real) on 12 held-out labels it never saw",
    );
    expect(await aligned.getByRole("link", { name: "its proof" }).getAttribute("href")).toMatch(/^\/alignments\//);
    await screenshot(page, "95-run-with-aligned-judge");
  }, 150_000);

  it("a custom judge: a failing endpoint fails the measurement with its reason, and Measure again finishes it", async () => {
    app.fake.setBehaviour({ faultRate: { status500: 1 } });
    await startAlignmentOf(TONE);
    expect(await page.locator("[data-testid=alignment-title]").innerText()).toBe("tone_aligned_v1");
    await page.locator("[data-testid=alignment-status]", { hasText: "failed" }).waitFor({ timeout: 60_000 });
    const failure = await page.locator("[data-testid=alignment-progress] [role=alert]").innerText();
    expect(failure).toContain("Measuring failed: the aligned version could not judge any of the 12 held-out units");
    expect(failure).not.toMatch(/sk-e2e|at .*\.js:\d+/);
    await screenshot(page, "96-alignment-failed");
    app.fake.setBehaviour({ faultRate: { status500: 0 } });
    await page.getByRole("button", { name: /Measure again/ }).click();
    await page.locator("[data-testid=alignment-status]", { hasText: "measured" }).waitFor({ timeout: 60_000 });
    expect(await page.locator("[data-testid=alignment-verdict]").innerText()).toContain("agrees more (real)");
  }, 120_000);

  it("a G-Eval judge: aligned and measured from the same panel", async () => {
    await startAlignmentOf(POLITENESS);
    expect(await page.locator("[data-testid=alignment-title]").innerText()).toBe("politeness_aligned_v1");
    await page.locator("[data-testid=alignment-status]", { hasText: "measured" }).waitFor({ timeout: 60_000 });
    expect(await page.locator("[data-testid=alignment-verdict]").innerText()).toContain("agrees more (real)");
    await screenshot(page, "97-g-eval-alignment");
    expect(problems).toEqual([]);
  }, 120_000);

  it("the API does the same: start, follow, adopt, and a run naming the adopted judge", async () => {
    // Every answer is checked against the served OpenAPI document's schema for its operation and status.
    const document: unknown = await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json();
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema(document as object, "openapi");
    const api = async (template: string, path: string, body?: unknown) => {
      const method = body === undefined ? "get" : "post";
      const response = await fetch(`${server.baseUrl}${path}`, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await response.json()) as Record<string, unknown>;
      const pointer = ["paths", template, method, "responses", String(response.status), "content", "application/json"]
        .concat("schema")
        .map((part) => part.replace(/~/g, "~0").replace(/\//g, "~1"))
        .join("/");
      const check = ajv.getSchema(`openapi#/${pointer}`);
      expect(check?.(json), `${method} ${template} → ${response.status}: ${ajv.errorsText(check?.errors)}`).toBe(true);
      return { status: response.status, json };
    };
    const START = "/api/v1/runs/{runId}/alignments";
    const ONE = "/api/v1/alignments/{alignmentId}";
    const DECIDE = "/api/v1/alignments/{alignmentId}/decision";
    const refused = await api(START, `/api/v1/runs/${runId}/alignments`, { metric: "response/llm_judged/safety" });
    expect(refused.status).toBe(409);
    const started = await api(START, `/api/v1/runs/${runId}/alignments`, {
      metric: TONE,
      guidance: "Rudeness is a no.",
    });
    expect(started.status).toBe(202);
    expect(started.json).toMatchObject({
      judgeName: "tone_aligned_v2",
      status: "measuring",
      guidance: "Rudeness is a no.",
    });
    const id = String(started.json.id);
    await expect
      .poll(async () => (await api(ONE, `/api/v1/alignments/${id}`)).json.status, { timeout: 30_000 })
      .toBe("measured");
    const measured = (await api(ONE, `/api/v1/alignments/${id}`)).json;
    expect(measured).toMatchObject({
      alignedMetric: "response/llm_judged/tone_aligned_v2",
      comparison: { verdict: "agrees more (real)" },
      definition: { type: "custom" },
    });
    // The second alignment of tone keeps the first one's held-out labels out of its training.
    expect(measured.heldOutLabels).toBeGreaterThanOrEqual(12);
    const decide = () => api(DECIDE, `/api/v1/alignments/${id}/decision`, { decision: "adopt" });
    expect((await decide()).json.status).toBe("adopted");
    expect((await decide()).status).toBe(409);
    const run = await api("/api/v1/runs", "/api/v1/runs", {
      datasetId,
      alignedJudges: [id],
      judge: "model",
      name: "API aligned",
    });
    expect(run.status, JSON.stringify(run.json)).toBe(201);
    expect(run.json.metrics).toEqual(["response/llm_judged/tone_aligned_v2"]);
  }, 120_000);

  it("the CLI against the server: --server … --align prints both versions and writes the aligned judge", async () => {
    const out = path.join(tempDir(), "relevance-remote.json");
    const result = await spawnEval(
      [
        "--server",
        server.baseUrl,
        "--dataset-id",
        datasetId,
        "--judges",
        "relevance_to_query",
        "--quiet",
        "--align",
        "relevance_to_query",
        "--align-out",
        out,
      ],
      {},
    ).done;
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain("Aligning response/llm_judged/relevance_to_query on the server:");
    expect(result.stdout).toMatch(/aligned\s+κ 1\.00/);
    expect(result.stdout).toContain("Agrees more (real)");
    expect(JSON.parse(fs.readFileSync(out, "utf8"))).toMatchObject({
      assessmentName: "relevance_to_query_aligned_v2",
      basedOn: RELEVANCE,
    });
  }, 120_000);

  async function startAlignmentOf(metric: string) {
    await page.goto(`${server.baseUrl}/runs/${runId}`);
    await page.locator(`[data-testid=agreement-panel] tr[data-metric="${metric}"] [data-testid=align-judge]`).click();
    await page.waitForURL((url) => url.pathname === `/runs/${runId}/align`);
    await waitForHydration(page, "[data-testid=start-alignment]");
    await page.locator("[data-testid=start-alignment]").click();
    await page.waitForURL((url) => url.pathname.startsWith("/alignments/"));
  }
});
