// Human labels in Chromium on the built app (issue 12): upload a dataset with
// a human_labels column, run the offline heuristic judge twice, see κ and the
// confusion matrix match a hand count, label rows on the drill-down with the
// keyboard alone, see the agreement update, open a confusion cell, filter to
// the disagreements, and read the compare page's agreement table.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { toJsonl } from "../support/evalFiles";
import type { AppServer } from "./appServer";
import { startHeuristicRun } from "./runFormSteps";
import {
  expectNoCrashText,
  openApp,
  screenshot,
  tempDir,
  uploadThroughPage,
  VALID_ROWS,
  waitForEffects,
  waitForHydration,
  writeFile,
  type OpenedApp,
} from "./helpers";

const G = "response/llm_judged/groundedness";
const C = "response/llm_judged/correctness";

let app: OpenedApp;
let server: AppServer;
let db: Db;
let page: Page;
let problems: string[];

beforeAll(async () => {
  app = await openApp();
  ({ server, db, page, problems } = app);
});

afterAll(async () => app?.close());

/** The run's groundedness verdict per row number. */
async function verdicts(runId: string, metric = G): Promise<Map<number, string | null>> {
  const rows = await db.$queryRawUnsafe<{ rowNumber: number | bigint; rating: string | null; status: string }[]>(
    `SELECT r."rowNumber", j."rating", j."status" FROM "JudgmentItem" j JOIN "DatasetRow" r ON r."id" = j."rowId"
     WHERE j."runId" = ? AND j."metric" = ? ORDER BY r."rowNumber"`,
    runId,
    metric,
  );
  return new Map(rows.map((row) => [Number(row.rowNumber), row.status === "done" ? row.rating : null]));
}

/** The confusion cells and κ by hand from (judge, human) pairs. */
function handCount(pairs: [string, string][]) {
  const cell = (j: string, h: string) => pairs.filter(([a, b]) => a === j && b === h).length;
  const [yy, yn, ny, nn] = [cell("yes", "yes"), cell("yes", "no"), cell("no", "yes"), cell("no", "no")];
  const n = yy + yn + ny + nn;
  const po = (yy + nn) / n;
  const pe = ((yy + yn) * (yy + ny) + (ny + nn) * (yn + nn)) / (n * n);
  return { yy, yn, ny, nn, n, kappa: pe === 1 ? null : (po - pe) / (1 - pe) };
}

async function panelFigures() {
  const row = page.locator(`[data-testid=agreement-table] tr[data-metric="${G}"]`);
  const cells = await row.locator(":scope > td").allInnerTexts();
  const matrix = await row.locator("table td").allInnerTexts();
  return {
    kappa: cells[0],
    labelled: Number(cells[3]),
    matrix: matrix.filter((t) => /^\d+$/.test(t.trim())).map(Number),
  };
}

describe("human labels, agreement and disagreements", () => {
  let datasetUrl = "";
  let runA = "";
  let runB = "";
  // Labels on rows 1–6 from the upload: yes, no, yes, no, yes, yes.
  const uploaded: Record<number, "yes" | "no"> = { 1: "yes", 2: "no", 3: "yes", 4: "no", 5: "yes", 6: "yes" };
  // Correctness too, so the panel shows a judge whose verdicts take both values.
  const correctness: Record<number, "yes" | "no"> = { 1: "yes", 2: "yes", 3: "no", 4: "yes", 5: "yes", 6: "no" };

  it("uploads a dataset with human_labels and runs the heuristic judge twice", async () => {
    const rows = VALID_ROWS.map((row, i) =>
      uploaded[i + 1]
        ? { ...row, human_labels: { groundedness: uploaded[i + 1], correctness: correctness[i + 1] } }
        : row,
    );
    const file = writeFile(tempDir(), "labelled.jsonl", toJsonl(rows));
    const datasetId = await uploadThroughPage(page, server.baseUrl, file, "Labelled set");
    const stored = await db.humanLabel.count({ where: { datasetId } });
    expect(stored).toBe(12);
    datasetUrl = `${server.baseUrl}/datasets/${datasetId}`;
    runA = await startHeuristicRun(page, datasetUrl, "Heuristic A");
    runB = await startHeuristicRun(page, datasetUrl, "Heuristic B");
  }, 150_000);

  it("the run page shows κ and the confusion matrix for groundedness as counted by hand", async () => {
    const judged = await verdicts(runA);
    const pairs = Object.entries(uploaded)
      .filter(([n]) => judged.get(Number(n)))
      .map(([n, label]) => [judged.get(Number(n)) ?? "", label] as [string, string]);
    const hand = handCount(pairs);
    await page.goto(`${server.baseUrl}/runs/${runA}`);
    const figures = await panelFigures();
    expect(figures.labelled).toBe(hand.n);
    expect(figures.matrix).toEqual([hand.yy, hand.yn, hand.ny, hand.nn]);
    if (hand.kappa === null) expect(figures.kappa).toMatch(/^undefined: /);
    else expect(figures.kappa.startsWith(hand.kappa.toFixed(2))).toBe(true);
    await page.locator("[data-testid=agreement-panel]").scrollIntoViewIfNeeded();
    await screenshot(page, "60-agreement-panel");
  });

  it("labels two rows on the drill-down with the keyboard alone, and the agreement follows", async () => {
    const judged = await verdicts(runA);
    const rowIds = await db.datasetRow.findMany({
      where: { datasetId: datasetUrl.split("/").at(-1) },
      orderBy: { rowNumber: "asc" },
      select: { id: true, rowNumber: true },
    });
    const row7 = rowIds.find((r) => r.rowNumber === 7);
    await page.goto(`${server.baseUrl}/runs/${runA}/rows/${row7?.id}`);
    const target = page.locator(`[data-testid=label-controls] li[data-label-target="groundedness"]`);
    await waitForHydration(page, "[data-testid=label-controls] button");
    await waitForEffects(page);
    const digit = (await target.locator("kbd").innerText()).trim();
    // Disagree with the judge on row 7, agree on row 8: both land in the matrix.
    const against = judged.get(7) === "yes" ? "n" : "y";
    await page.keyboard.press(digit);
    await expect.poll(() => target.getAttribute("aria-current")).toBe("true");
    await screenshot(page, "61-drilldown-label-picked");
    await page.keyboard.press(against);
    await expect
      .poll(() => target.locator("[data-testid=current-label]").innerText(), { timeout: 10_000 })
      .toMatch(against === "y" ? /^label: yes( \(disagrees\))?$/ : /^label: no( \(disagrees\))?$/);
    expect(await target.innerText()).toContain("by Local admin");
    // n with a line picked labelled the row; it did not move to another row.
    expect(new URL(page.url()).pathname).toBe(`/runs/${runA}/rows/${row7?.id}`);
    await screenshot(page, "62-drilldown-labelled");

    await page.keyboard.press("]");
    await page.waitForURL((url) => url.pathname !== `/runs/${runA}/rows/${row7?.id}`);
    await page.locator("h1", { hasText: "Row 8" }).waitFor();
    await waitForHydration(page, "[data-testid=label-controls] button");
    await waitForEffects(page);
    const next = page.locator(`[data-testid=label-controls] li[data-label-target="groundedness"]`);
    await page.keyboard.press((await next.locator("kbd").innerText()).trim());
    await page.keyboard.press(judged.get(8) === "no" ? "n" : "y");
    await expect
      .poll(() => next.locator("[data-testid=current-label]").innerText(), { timeout: 10_000 })
      .toMatch(judged.get(8) === "no" ? /^label: no$/ : /^label: yes$/);
    await page.locator("[data-testid=label-history] summary").click();
    expect(await page.locator("[data-testid=label-history]").innerText()).toMatch(
      /Local admin · groundedness: (yes|no) \(ui\)/,
    );

    const before = (
      await (async () => {
        await page.goto(`${server.baseUrl}/runs/${runA}`);
        return panelFigures();
      })()
    ).labelled;
    const judgedUploaded = Object.keys(uploaded).filter((n) => judged.get(Number(n))).length;
    expect(before).toBe(judgedUploaded + [7, 8].filter((n) => judged.get(n)).length);
  }, 60_000);

  it("a confusion cell opens exactly its rows, and the disagreement filter lists every disagreement", async () => {
    await page.goto(`${server.baseUrl}/runs/${runA}`);
    const cellLink = page.locator(`[data-testid=agreement-table] tr[data-metric="${G}"] a[data-cell]`).first();
    const cell = (await cellLink.getAttribute("data-cell")) ?? "";
    const count = Number(await cellLink.innerText());
    await cellLink.click();
    await page.waitForURL((url) => url.searchParams.get("filter") === "cell");
    const rows = page.locator("[data-testid=run-rows-table] tbody tr");
    await expect.poll(() => rows.count()).toBe(count);
    const [judge, human] = cell.split("-");
    expect(await page.locator("[data-testid=row-filter-summary]").innerText()).toContain(
      `judge ${judge}, label ${human}`,
    );
    await screenshot(page, "63-confusion-cell-rows");

    // The filter without a metric: rows where the judge differs from the label on any labelled metric.
    const labels = await db.humanLabel.findMany({ include: { row: true } });
    const judgedBy = new Map([
      [G, await verdicts(runA)],
      [C, await verdicts(runA, C)],
    ]);
    const disagreeingOn = (metrics: string[]) =>
      new Set(
        labels
          .filter((l) => {
            const judge = judgedBy.get(l.metric)?.get(l.row.rowNumber);
            return metrics.includes(l.metric) && judge && judge !== l.rating;
          })
          .map((l) => l.row.requestId),
      );
    await page.getByRole("link", { name: "Judge disagrees with label" }).click();
    await page.waitForURL((url) => url.searchParams.get("filter") === "disagrees");
    // The tab keeps the metric the cell was on, as every tab does: disagreements on groundedness.
    await expect.poll(() => rows.count()).toBe(disagreeingOn([G]).size);
    expect(await page.locator("[data-testid=row-filter-summary]").innerText()).toContain("on groundedness");
    // Clearing the metric: disagreements on any labelled metric.
    await page.locator("[data-testid=row-filter-summary] a[data-chip=metric]").click();
    await page.waitForURL((url) => url.searchParams.get("filter") === "disagrees" && !url.searchParams.has("metric"));
    const any = disagreeingOn([G, C]);
    expect(any.size).toBeGreaterThan(disagreeingOn([G]).size);
    await expect.poll(() => rows.count()).toBe(any.size);
    await screenshot(page, "64-disagreements");
    await expectNoCrashText(page);
  });

  it("the labelling queue shows progress toward its target and links to rows", async () => {
    await page.goto(`${server.baseUrl}/runs/${runA}/label?queue=${encodeURIComponent(G)}&target=10`);
    expect(await page.locator("[data-testid=queue-progress]").innerText()).toMatch(/of 10 labelled for groundedness/);
    expect(await page.locator("[role=progressbar]").getAttribute("aria-valuenow")).not.toBeNull();
    await screenshot(page, "65-labelling-queue");
    // A row opened from the queue keeps it: ] goes to the queue's next row, not the filter's.
    const links = page.locator("[data-testid=labelling-queue] ol a");
    const [first, second] = await links.allInnerTexts();
    await links.first().click();
    await page.waitForURL((url) => url.searchParams.get("queue") === G);
    await page.locator("h1", { hasText: first.replace(/,.*/, "") }).waitFor();
    await waitForHydration(page, "[data-testid=label-controls] button");
    await waitForEffects(page);
    if (second) {
      await page.keyboard.press("]");
      await page.locator("h1", { hasText: second.replace(/,.*/, "") }).waitFor();
      expect(new URL(page.url()).searchParams.get("queue")).toBe(G);
    }
  });

  it("the compare page shows both runs' agreement side by side with the paired test", async () => {
    await page.goto(`${server.baseUrl}/compare?runs=${runA},${runB}&baseline=${runA}`);
    const table = page.locator("[data-testid=compare-agreement]");
    await table.waitFor();
    expect(await table.locator(`tr[data-metric="${G}"]`).count()).toBe(2);
    expect(await table.innerText()).toMatch(/p = [\d.]+ on \d+ labels/);
    await table.scrollIntoViewIfNeeded();
    await screenshot(page, "66-compare-agreement");
    expect(problems).toEqual([]);
  });

  it("shows, beside the importer, who an imported file said labelled (stated by)", async () => {
    // As a label import with sign-in on stores it: the importer labelled, the file's labelled_by is kept apart.
    const row = await db.datasetRow.findFirstOrThrow({
      where: { datasetId: datasetUrl.split("/").at(-1), rowNumber: 10 },
    });
    const label = {
      datasetId: row.datasetId,
      rowId: row.id,
      metric: G,
      kind: "rating",
      rating: "yes",
      source: "import",
    };
    const stated = { labelledBy: "runner@example.com", statedBy: "mallory@example.com" };
    await db.humanLabel.create({ data: { ...label, ...stated } });
    await db.humanLabelRevision.create({ data: { ...label, ...stated, revision: 1, action: "set" } });
    await page.goto(`${server.baseUrl}/runs/${runA}/rows/${row.id}`);
    const target = page.locator(`[data-testid=label-controls] li[data-label-target="groundedness"]`);
    await target.waitFor();
    expect(await target.innerText()).toContain("by runner@example.com, stated by mallory@example.com");
    await page.locator("[data-testid=label-history] summary").click();
    expect(await page.locator("[data-testid=label-history]").innerText()).toContain(
      "runner@example.com, stated by mallory@example.com · groundedness: yes (import)",
    );
    await target.scrollIntoViewIfNeeded();
    await screenshot(page, "67-drilldown-stated-by");
    expect(problems).toEqual([]);
  });
});
