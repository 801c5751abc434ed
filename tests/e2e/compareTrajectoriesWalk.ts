// Two versions of an agent compared, on either store, in Chromium on the built app: version A's and version B's
// answers to the same three requests (same request_ids) uploaded through the page as two datasets, each judged
// by the offline judge with the four deterministic tool-call metrics against the same expected calls. One
// request B answers with A's calls, one with an extra (failing) call, one with another tool first. The compare
// page (baseline A) lists the agent metrics with their deltas, tool calls counted in calls; a changed row's
// side-by-side page lines the two versions' calls up and marks where they first part. One file per store
// (compareTrajectories.test.ts, compareTrajectoriesPostgres.test.ts), so the two can run side by side.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import type { Dialect } from "@/lib/db/store/dialect";
import type { AppServer } from "./appServer";
import { expectAccessible } from "./accessibility";
import {
  expectNoCrashText,
  openApp,
  screenshot,
  tempDir,
  uploadThroughPage,
  viewportScreenshot,
  writeFile,
  type OpenedApp,
} from "./helpers";
import { chooseOnly, openRunForm, startAndFinish } from "./runFormSteps";

const EXACT = "agent/ground_truth/tool_call_exact_match";
const CORRECTNESS = "agent/ground_truth/tool_correctness";
const NO_LOOPS = "agent/trajectory/no_tool_loops";
const COUNT = "agent/tool_call_count";
/** The run form's labels of the four metrics (lib/contract/agentMetricCatalog.ts). */
const TOOL_METRIC_LABELS = [
  "Tool call exact match (MLflow)",
  "Tool correctness (DeepEval)",
  "No tool loops",
  "Tool calls",
];

type Call = { name: string; arguments: Record<string, unknown>; duration_ms?: number; error?: string };
const tool = (name: string, args: Record<string, unknown>, more: Omit<Call, "name" | "arguments"> = {}): Call => ({
  name,
  arguments: args,
  ...more,
});
/** Long enough (as compact JSON) to be collapsed behind its first characters. */
const READ_ARGS = {
  bucket: "logs",
  key: "2025/06/app.log",
  range: "bytes=0-1048575",
  if_match: "9b2cf535f27731c974343645",
};

/** Each request with version A's calls (also what the row expects) and version B's. */
const CASES: { id: string; request: string; a: Call[]; b: Call[] }[] = [
  {
    id: "c1",
    request: "List my buckets and show me the logs bucket",
    a: [tool("list_buckets", {}, { duration_ms: 120 }), tool("get_bucket", { name: "logs" }, { duration_ms: 80 })],
    b: [tool("list_buckets", {}, { duration_ms: 110 }), tool("get_bucket", { name: "logs" }, { duration_ms: 90 })],
  },
  {
    id: "c2",
    request: "Read today's application log from the logs bucket",
    a: [
      tool("get_bucket", { name: "logs" }, { duration_ms: 85 }),
      tool("read_object", READ_ARGS, { duration_ms: 640 }),
    ],
    b: [
      tool("get_bucket", { name: "logs" }, { duration_ms: 90 }),
      tool(
        "list_objects",
        { bucket: "logs", prefix: "2025/06/" },
        { duration_ms: 5000, error: "TimeoutError: list_objects timed out after 5 s" },
      ),
      tool("read_object", READ_ARGS, { duration_ms: 610 }),
    ],
  },
  {
    id: "c3",
    request: "Delete old.txt from the logs bucket",
    a: [
      tool("get_bucket", { name: "logs" }, { duration_ms: 75 }),
      tool("delete_object", { bucket: "logs", key: "old.txt" }, { duration_ms: 150 }),
    ],
    b: [
      tool("list_buckets", {}, { duration_ms: 130 }),
      tool("delete_object", { bucket: "logs", key: "old.txt" }, { duration_ms: 160 }),
    ],
  },
];

function versionFile(dir: string, version: "a" | "b"): string {
  const lines = CASES.map((c) =>
    JSON.stringify({
      request_id: c.id,
      request: c.request,
      response: `Version ${version.toUpperCase()} answered: ${c.request.toLowerCase()}.`,
      tool_calls: c[version],
      expected_tool_calls: c.a.map(({ name, arguments: args }) => ({ name, arguments: args })),
    }),
  );
  return writeFile(dir, `ops-agent-${version}.jsonl`, `${lines.join("\n")}\n`);
}

export function describeCompareTrajectories(store: Dialect): void {
  let app: OpenedApp;
  let server: AppServer;
  let db: Db;
  let page: Page;
  let datasetA = "";
  let runA = "";
  let runB = "";

  beforeAll(async () => {
    app = await openApp({ store });
    ({ server, db, page } = app);
    const dir = tempDir();
    const judge = async (file: string, dataset: string, run: string) => {
      const datasetId = await uploadThroughPage(page, server.baseUrl, file, dataset);
      await openRunForm(page, server.baseUrl, datasetId);
      await page.getByLabel("Offline heuristic judge").check();
      await chooseOnly(page, TOOL_METRIC_LABELS);
      return { datasetId, runId: await startAndFinish(page, run, 90_000) };
    };
    ({ datasetId: datasetA, runId: runA } = await judge(versionFile(dir, "a"), "Ops agent A", "Ops agent v1"));
    ({ runId: runB } = await judge(versionFile(dir, "b"), "Ops agent B", "Ops agent v2"));
  }, 300_000);

  afterAll(async () => {
    await app?.close();
  });

  async function rowIdOf(requestId: string): Promise<string> {
    const row = await db.datasetRow.findFirst({ where: { datasetId: datasetA, requestId }, select: { id: true } });
    if (!row) throw new Error(`no row ${requestId}`);
    return row.id;
  }

  const metricRow = (metric: string) => page.locator(`[data-testid=metric-comparison] tr[data-metric="${metric}"]`);
  const cellTexts = (metric: string) =>
    metricRow(metric)
      .locator("td")
      .evaluateAll((cells) => cells.slice(1).map((cell) => (cell as HTMLElement).innerText.replace(/\s+/g, " ")));
  const card = () => page.locator("[data-testid=compared-trajectories]");
  const summary = () => card().locator("[data-testid=trajectory-diff-summary]").innerText();
  const kinds = () =>
    card()
      .locator("[data-testid=trajectory-diff-row]")
      .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-kind")));

  async function openSideBySide(requestId: string, metric?: string): Promise<void> {
    const query = new URLSearchParams({ baseline: runA, candidate: runB, row: await rowIdOf(requestId) });
    if (metric) query.set("metric", metric);
    await page.goto(`${server.baseUrl}/compare/row?${query}`);
    await page.locator("[data-testid=side-by-side]").waitFor();
    await expectNoCrashText(page);
  }

  describe(`a reviewer compares two versions of an agent by what they did (${store})`, () => {
    it("the compare page lists the agent metrics with their deltas, tool calls counted in calls", async () => {
      await page.goto(`${server.baseUrl}/compare?runs=${runA},${runB}&baseline=${runA}`);
      await page.locator("[data-testid=metric-comparison]").waitFor();
      // Two datasets of one eval set: paired row by row on request_id and request, all three.
      expect(await page.locator("[data-testid=row-pairing]").innerText()).toContain(
        "Ops agent v2: All 3 rows paired by request_id and request.",
      );
      for (const metric of [EXACT, CORRECTNESS, NO_LOOPS, COUNT]) expect(await metricRow(metric).count()).toBe(1);
      // Every score's bootstrap computed (a small comparison is quick; the page refreshes itself until then).
      await expect
        .poll(async () => (await page.locator("[data-testid=metric-comparison]").innerText()).includes("computing"), {
          timeout: 30_000,
        })
        .toBe(false);

      // A made exactly the expected calls on all three rows, B on one.
      const exact = await cellTexts(EXACT);
      expect(exact[0]).toContain("100.0% yes (3/3)");
      expect(exact[1]).toContain("33.3% yes (1/3)");
      expect(await metricRow(EXACT).locator("[data-testid=delta-words]").innerText()).toMatch(/66\.7/);
      // DeepEval's share of expected tools: B's extra call costs nothing, its other first tool half of c3.
      const correctness = await cellTexts(CORRECTNESS);
      expect(correctness[0]).toMatch(/^1\.00 average/);
      expect(correctness[1]).toMatch(/^0\.83 average/);
      expect(await metricRow(CORRECTNESS).locator("[data-testid=delta-words]").innerText()).toMatch(/\u22120\.17/);
      // Neither repeated a call.
      expect((await cellTexts(NO_LOOPS))[1]).toContain("100.0% yes (3/3)");
      // The count of calls per row, in calls, and its paired delta in calls: B's one extra call over three rows.
      const count = await cellTexts(COUNT);
      expect(count[0]).toMatch(/^2 calls/);
      expect(count[1]).toMatch(/^2\.33 calls/);
      const countDelta = await metricRow(COUNT).locator("[data-testid=delta-words]").innerText();
      expect(countDelta).toMatch(
        /^Likely noise[^:]*: \+0\.33 calls \(95% CI 0\.00 to \+1\.00 calls; .*fewer is cheaper, not always better: read the tool-call metrics beside it\)$/,
      );
      // Agent values have no pass mark: nothing of them flips, so the list holds only the yes/no and score metrics.
      const flipped = await page
        .locator("[data-testid=flip] a")
        .evaluateAll((links) =>
          links.map((a) => new URL(a.getAttribute("href")!, "http://x").searchParams.get("metric")),
        );
      expect(flipped).not.toContain(COUNT);
      expect(flipped).toContain(EXACT);
      await expectNoCrashText(page);
      await viewportScreenshot(page.locator("[data-testid=metric-comparison]"), `compare-agents-${store}`);
      await expectAccessible(page);
    });

    it("a flipped row opened from the list: B's extra, failed call marked as the first difference", async () => {
      await page.goto(`${server.baseUrl}/compare?runs=${runA},${runB}&baseline=${runA}`);
      await page.locator(`[data-testid=flip][data-metric="${EXACT}"]`, { hasText: "c2" }).locator("a").click();
      await page.waitForURL((url) => url.pathname === "/compare/row");
      await card().waitFor();
      await expectNoCrashText(page);
      expect(await summary()).toBe(
        "Baseline: 2 calls · Candidate: 3 calls, 1 failed · first difference at call 2: read_object vs list_objects",
      );
      expect(await kinds()).toEqual(["same", "only_candidate", "same"]);
      const first = card().locator("[data-testid=trajectory-diff-row][data-first-divergence=true]");
      expect(await first.count()).toBe(1);
      expect(await first.locator("[data-testid=first-divergence]").innerText()).toMatch(/first difference\s*at call 2/);
      const failed = first.locator("[data-testid=trajectory-diff-call][data-failed=true]");
      expect(await failed.locator("[data-testid=call-name]").innerText()).toBe("list_objects");
      expect(await failed.locator("[data-testid=call-error]").innerText()).toBe(
        "TimeoutError: list_objects timed out after 5 s",
      );
      expect(await failed.innerText()).toContain("5.00 s");
      // Long arguments are collapsed to one line until opened.
      const readArgs = card().locator("[data-testid=trajectory-diff-call]", { hasText: "read_object" }).first();
      const details = readArgs.locator("details[data-testid=call-arguments]");
      expect(await details.getAttribute("open")).toBeNull();
      await details.locator("summary").click();
      expect(await details.innerText()).toContain('"if_match": "9b2cf535f27731c974343645"');
      // Each column says whose calls they are, with their count and time in tools.
      expect(await card().locator("[data-testid=trajectory-diff-candidate]").innerText()).toMatch(
        /B \(candidate\): Ops agent v2\s+3 calls · 1 failed · 5\.70 s in tools/,
      );
      // Right after the responses, before the pairwise verdicts.
      const order = await page.evaluate(() =>
        [...document.querySelectorAll("[data-testid]")]
          .map((element) => element.getAttribute("data-testid"))
          .filter((id) => id === "side-by-side" || id === "compared-trajectories" || id === "pairwise-row"),
      );
      expect(order).toEqual(["side-by-side", "compared-trajectories", "pairwise-row"]);
    });

    it("another tool first: the difference at call 1, the shared call still on one line", async () => {
      await openSideBySide("c3", EXACT);
      expect(await summary()).toBe(
        "Baseline: 2 calls · Candidate: 2 calls · first difference at call 1: get_bucket vs list_buckets",
      );
      expect(await kinds()).toEqual(["only_baseline", "only_candidate", "same"]);
      const rows = card().locator("[data-testid=trajectory-diff-row]");
      expect(await rows.first().getAttribute("data-first-divergence")).toBe("true");
      expect(await rows.nth(2).locator("[data-testid=call-name]").allInnerTexts()).toEqual([
        "delete_object",
        "delete_object",
      ]);
      await screenshot(page, `compare-trajectories-${store}`);
      await viewportScreenshot(card(), `compare-trajectories-card-${store}`);
    });

    it("the same calls: lined up one to one, no difference marked", async () => {
      await openSideBySide("c1");
      expect(await summary()).toBe("Baseline: 2 calls · Candidate: 2 calls · the same calls in the same order");
      expect(await kinds()).toEqual(["same", "same"]);
      expect(await card().locator("[data-first-divergence]").count()).toBe(0);
    });

    it("on a narrow screen the two columns still fit, nothing scrolls sideways", async () => {
      await page.setViewportSize({ width: 400, height: 900 });
      try {
        await openSideBySide("c2", EXACT);
        expect(await card().evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0);
        const [left, right] = await card()
          .locator("[data-testid=trajectory-diff-row]")
          .first()
          .locator("[data-testid=trajectory-diff-call]")
          .evaluateAll((cells) => cells.map((cell) => cell.getBoundingClientRect()));
        expect(right.x).toBeGreaterThanOrEqual(left.x + left.width);
        await viewportScreenshot(card(), `compare-trajectories-narrow-card-${store}`);
      } finally {
        await page.setViewportSize({ width: 1280, height: 900 });
      }
      expect(app.problems).toEqual([]);
    });
  });
}
