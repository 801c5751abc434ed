// A reviewer reads an agent's tool calls, on either store, in Chromium on the built app: the 22-case
// tool-call fixture uploaded through the page and judged by the offline judge with the four deterministic
// tool-call metrics; then a row with an MLflow 3 trace (its timeline tree and the two calls its TOOL spans
// made), a row with an MLflow 2 trace whose tool failed (the red span, the call's error), a row whose calls
// came out of order, and a row that called the wrong tool (missing and extra, beside the failing metric's
// rationale). One file per store (trajectory.test.ts, trajectoryPostgres.test.ts), so the two can run side by side.
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import type { Dialect } from "@/lib/db/store/dialect";
import { importRows } from "../support/engineKit";
import type { AppServer } from "./appServer";
import {
  expectNoCrashText,
  openApp,
  screenshot,
  uploadThroughPage,
  viewportScreenshot,
  type OpenedApp,
} from "./helpers";
import { chooseOnly, openRunForm, startAndFinish } from "./runFormSteps";

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/agent/tool-call-cases.jsonl");
const EXACT = "agent/ground_truth/tool_call_exact_match";
const CORRECTNESS = "agent/ground_truth/tool_correctness";
/** A long agent run: a root and 259 steps (model calls, tools, retrievals, some nested), one failing, long inputs. */
function longTrace(): string {
  const types = ["CHAT_MODEL", "TOOL", "RETRIEVER", "TOOL"];
  const root = {
    span_id: "root",
    parent_span_id: null,
    name: "agent",
    start_time_unix_nano: 0,
    end_time_unix_nano: 26e9,
    attributes: { "mlflow.spanType": JSON.stringify("AGENT") },
  };
  const steps = Array.from({ length: 259 }, (_, i) => ({
    span_id: `s${i}`,
    parent_span_id: i % 10 === 9 ? `s${i - 1}` : "root",
    name: `step ${i + 1}`,
    start_time_unix_nano: i * 1e8,
    end_time_unix_nano: i * 1e8 + 8e7,
    ...(i === 41 ? { status: { code: "STATUS_CODE_ERROR", message: "RateLimitError: slow down" } } : {}),
    attributes: {
      "mlflow.spanType": JSON.stringify(types[i % types.length]),
      "mlflow.spanInputs": JSON.stringify({ step: i + 1, notes: "n".repeat(3000) }),
    },
  }));
  return JSON.stringify({ info: { trace_id: "tr-long" }, data: { spans: [root, ...steps] } });
}

/** The run form's labels of the four deterministic tool-call metrics (lib/contract/agentMetricCatalog.ts). */
const TOOL_METRIC_LABELS = [
  "Tool call exact match (MLflow)",
  "Tool correctness (DeepEval)",
  "No tool loops",
  "Tool calls",
];

export function describeTrajectory(store: Dialect): void {
  let app: OpenedApp;
  let server: AppServer;
  let db: Db;
  let page: Page;
  let datasetId = "";
  let runId = "";

  beforeAll(async () => {
    app = await openApp({ store });
    ({ server, db, page } = app);
    datasetId = await uploadThroughPage(page, server.baseUrl, FIXTURE, "Agent tool calls");
    await openRunForm(page, server.baseUrl, datasetId);
    await page.getByLabel("Offline heuristic judge").check();
    await chooseOnly(page, TOOL_METRIC_LABELS);
    // The agent family in the run form: the four run offline, the LLM judges say they need one; choosing tool
    // correctness shows the settings against expected_tool_calls.
    const family = page.locator("[data-testid=judge-family-agent]");
    expect(await family.innerText()).toContain("needs an LLM judge");
    expect(await page.locator("[data-testid=tool-call-settings]").innerText()).toContain("should_consider_ordering");
    await viewportScreenshot(family, `run-form-agents-${store}`);
    runId = await startAndFinish(page, "Agent tools, offline", 90_000);
  }, 240_000);

  afterAll(async () => {
    await app?.close();
  });

  async function rowIdOf(requestId: string): Promise<string> {
    const row = await db.datasetRow.findFirst({ where: { datasetId, requestId }, select: { id: true } });
    if (!row) throw new Error(`no row ${requestId}`);
    return row.id;
  }

  async function openRunRow(requestId: string): Promise<void> {
    await page.goto(`${server.baseUrl}/runs/${runId}/rows/${await rowIdOf(requestId)}`);
    await page.locator("[data-testid=judgment]").first().waitFor();
    await expectNoCrashText(page);
  }

  const toolCalls = () => page.locator("[data-testid=tool-calls]");
  const trajectory = () => page.locator("[data-testid=trajectory]");
  const statuses = () =>
    toolCalls()
      .locator("[data-testid=expected-call]")
      .evaluateAll((items) => items.map((item) => item.getAttribute("data-status")));
  const calledNames = () => toolCalls().locator("[data-testid=called-call] [data-testid=call-name]").allInnerTexts();

  describe(`a reviewer reads an agent's tool calls and trajectory (${store})`, () => {
    it("t18, an MLflow 3 trace: the timeline tree, and the two calls its TOOL spans made, as expected", async () => {
      await openRunRow("t18");
      const summary = await trajectory().locator("[data-testid=trajectory-summary]").innerText();
      expect(summary).toContain("4 spans (AGENT 1, CHAT_MODEL 1, TOOL 2)");
      expect(summary).toContain("3.00 s in all");
      const spans = trajectory().locator("[data-testid=span]");
      // Tree order: the agent, then its children by start time (fetch ran before search, though listed after it).
      expect(await spans.locator("[data-testid=span-name]").allInnerTexts()).toEqual([
        "agent",
        "chat",
        "fetch",
        "search",
      ]);
      expect(await spans.locator("[data-testid=span-type]").allInnerTexts()).toEqual([
        "AGENT",
        "CHAT_MODEL",
        "TOOL",
        "TOOL",
      ]);
      expect(await spans.nth(1).locator("[data-testid=span-tokens]").innerText()).toBe("100 in · 20 out tokens");
      // The fetch span ran from 0.3 s to 0.9 s of the 3 s trace: its bar starts at 10% and is 20% wide.
      expect(await spans.nth(2).locator("[data-testid=span-bar]").getAttribute("style")).toMatch(
        /left:\s*10%;\s*width:\s*20%/,
      );
      expect(await spans.nth(2).innerText()).toContain("600 ms");

      // Collapsed until asked; the tool's HTML output is shown as text, never rendered.
      const fetchTexts = spans.nth(2).locator("[data-testid=span-texts]");
      expect(await fetchTexts.isVisible()).toBe(false);
      await spans.nth(2).locator("summary").click();
      await expect.poll(() => fetchTexts.isVisible()).toBe(true);
      expect(await fetchTexts.innerText()).toContain("<html>page</html>");
      expect(await fetchTexts.locator("html, body").count()).toBe(0);

      expect(await toolCalls().locator("h2 + p").innerText()).toBe("2 calls from the trace's TOOL spans");
      expect(await statuses()).toEqual(["matched", "matched"]);
      expect(await calledNames()).toEqual(["fetch", "search"]);
      expect(await toolCalls().locator("[data-testid=tool-call-order]").innerText()).toBe(
        "The paired calls came in the expected order.",
      );
      expect(await toolCalls().locator("[data-testid=offered-tools]").innerText()).toMatch(
        /search — Search the docs[\s\S]*fetch — Fetch a URL/,
      );
      expect(await toolCalls().locator("[data-testid=called-call]").first().innerText()).toContain("600 ms");
      await screenshot(page, `trajectory-${store}`);
      await viewportScreenshot(trajectory(), `trajectory-card-${store}`);
    });

    it("t19, an MLflow 2 trace whose tool failed: the span in red with its error, and the failed call", async () => {
      await openRunRow("t19");
      const failed = trajectory().locator("[data-testid=span][data-status=error]");
      expect(await failed.count()).toBe(1);
      expect(await failed.locator("[data-testid=span-name]").innerText()).toBe("search");
      expect(await failed.locator("[data-testid=span-error]").innerText()).toBe("TimeoutError: search timed out");
      expect(await trajectory().locator("[data-testid=trajectory-summary]").innerText()).toContain("1 failed span");
      expect(await failed.locator("[data-testid=span-bar]").getAttribute("class")).toContain("bg-red-500");
      const call = toolCalls().locator("[data-testid=called-call]");
      expect(await call.count()).toBe(1);
      expect(await call.locator("[data-testid=call-error]").innerText()).toBe("TimeoutError: search timed out");
      expect(await statuses()).toEqual(["matched"]);
      await viewportScreenshot(trajectory(), `trajectory-error-card-${store}`);
    });

    it("on a narrow screen the expected and actual calls stack, and the timeline still fits", async () => {
      await page.setViewportSize({ width: 400, height: 900 });
      try {
        await openRunRow("t19");
        const expectedBox = await toolCalls().locator("[data-testid=expected-calls]").boundingBox();
        const calledBox = await toolCalls().locator("[data-testid=called-calls]").boundingBox();
        expect(expectedBox && calledBox && calledBox.y >= expectedBox.y + expectedBox.height).toBe(true);
        // Neither card is wider than its box: nothing of them scrolls sideways.
        for (const card of [toolCalls(), trajectory()])
          expect(await card.evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0);
        await viewportScreenshot(toolCalls(), `tool-calls-narrow-card-${store}`);
        await viewportScreenshot(trajectory(), `trajectory-narrow-card-${store}`);
      } finally {
        await page.setViewportSize({ width: 1280, height: 900 });
      }
    });

    it("t05, the right calls out of order: every expected call matched, the order said", async () => {
      await openRunRow("t05");
      expect(await toolCalls().locator("h2 + p").innerText()).toBe("3 calls from the tool_calls column");
      expect(await statuses()).toEqual(["matched", "matched", "matched"]);
      const order = toolCalls().locator("[data-testid=tool-call-order]");
      expect(await order.getAttribute("data-in-order")).toBe("false");
      expect(await order.innerText()).toContain("expected 1, 2, 3 were calls 1, 3, 2");
      // DeepEval's unordered score finds 2 of 3 (the second search counts as the first), which the judge shows.
      const correctness = page.locator(`[data-testid=judgment][data-metric="${CORRECTNESS}"]`);
      expect(await correctness.locator("[data-testid=rationale]").innerText()).not.toBe("");
      // No trace on this row: no trajectory.
      expect(await trajectory().count()).toBe(0);
    });

    it("t10, the wrong tool: the expected call missing, the actual one extra, beside the failing metric's why", async () => {
      await openRunRow("t10");
      expect(await statuses()).toEqual(["missing"]);
      const called = toolCalls().locator("[data-testid=called-call]");
      expect(await called.getAttribute("data-extra")).toBe("true");
      expect(await called.innerText()).toMatch(/#1\s+fetch\s+extra/);
      expect(await toolCalls().locator("[data-testid=tool-call-summary]").innerText()).toBe(
        "0 of 1 expected call matched · 1 missing · 1 extra call",
      );
      const exact = page.locator(`[data-testid=judgment][data-metric="${EXACT}"]`);
      const stored = await db.judgmentItem.findFirst({
        where: { runId, metric: EXACT, row: { requestId: "t10", datasetId } },
        select: { rating: true, rationale: true },
      });
      expect(stored?.rating).toBe("no");
      const rationale = await exact.locator("[data-testid=rationale]").innerText();
      expect(rationale).toBe(stored?.rationale);
      expect(rationale).toMatch(/^Missing: .*search.*; Unexpected: .*fetch/);
      // The tool-call card sits right under the judges, where the reviewer reads why the metric failed.
      const order = await page.evaluate(() => {
        const cards = [...document.querySelectorAll("section h2")].map((h) => h.textContent);
        return cards.indexOf("Tool calls") - cards.indexOf("Judges");
      });
      expect(order).toBe(1);
      await screenshot(page, `tool-calls-${store}`);
      await viewportScreenshot(toolCalls(), `tool-calls-card-${store}`);
    });

    it("the dataset's own row page shows the same trajectory and calls", async () => {
      await page.goto(`${server.baseUrl}/datasets/${datasetId}/rows/${await rowIdOf("t18")}`);
      await trajectory().waitFor();
      expect(await trajectory().locator("[data-testid=span]").count()).toBe(4);
      // Without a run the calls stand beside the expected ones all the same.
      expect(await statuses()).toEqual(["matched", "matched"]);
      await expectNoCrashText(page);
      expect(app.problems).toEqual([]);
    });

    it("a trace of 260 spans: every span drawn, each one compact row, the long inputs cut shorter", async () => {
      const longDataset = await importRows(db, [
        { request_id: "long-1", request: "A long agent run", trace: longTrace() },
      ]);
      const row = await db.datasetRow.findFirst({ where: { datasetId: longDataset }, select: { id: true } });
      await page.goto(`${server.baseUrl}/datasets/${longDataset}/rows/${row?.id}`);
      const spans = trajectory().locator("[data-testid=span]");
      await trajectory().waitFor();
      expect(await spans.count()).toBe(260);
      // One row each, the failing one too (its error on the line itself).
      const heights = await spans.evaluateAll((items) => items.map((item) => item.getBoundingClientRect().height));
      expect(Math.max(...heights)).toBeLessThan(24);
      const failed = trajectory().locator("[data-testid=span][data-status=error]");
      expect(await failed.locator("[data-testid=span-error]").innerText()).toBe("RateLimitError: slow down");
      await spans.nth(5).locator("summary").click();
      expect(await spans.nth(5).locator("[data-testid=span-texts]").innerText()).toContain(
        "more characters not shown in a trace this long",
      );
      await trajectory().evaluate((element) => element.scrollIntoView({ block: "start" }));
      await viewportScreenshot(page, `trajectory-long-${store}`);
      await expectNoCrashText(page);
    });
  });
}
