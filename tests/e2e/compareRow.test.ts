// The side-by-side row of a comparison, in Chromium on the built app: it shows the row's ground truth and its
// retrieved chunks with both runs' per-chunk verdicts, and j / k / n step through the flip list in the list's
// order and filters ("flip 2 of 4").
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { startFakeOpenAIServer, type FakeOpenAIServer, type Responder } from "../support/fakeOpenAIServer";
import { fencedContents } from "../support/fenced";
import { importRows, runToCompletion } from "../support/engineKit";
import type { AppServer } from "./appServer";
import { expectNoCrashText, openApp, screenshot, waitForHydration, type OpenedApp } from "./helpers";

const SAFETY = "response/llm_judged/safety";
const CHUNK_RELEVANCE = "retrieval/llm_judged/chunk_relevance";

/**
 * Two judges: "judge-a" (the baseline's) says no to a response holding BASE_NO, "judge-b" (the candidate's) to
 * one holding CAND_NO, and judge-b alone finds a chunk holding STALE irrelevant. So safety flips on r2, r5
 * (improvements, no → yes) and r3, r4 (regressions, yes → no).
 */
const responder: Responder = (body) => {
  const schemaName: string = body.response_format?.json_schema?.name ?? body.tools?.[0]?.function?.name ?? "";
  const prompt = JSON.stringify(body.messages);
  if (schemaName.endsWith("_verdicts"))
    return JSON.stringify({
      verdicts: fencedContents((body.messages as { content: string }[]).map((m) => m.content).join("\n"), "chunk").map(
        (text, i) => ({
          chunk_index: i + 1,
          rationale: `${body.model} read chunk ${i + 1}`,
          rating: body.model === "judge-b" && text.includes("STALE") ? "no" : "yes",
        }),
      ),
    });
  const marker = body.model === "judge-a" ? "BASE_NO" : "CAND_NO";
  return JSON.stringify({ rationale: `${body.model} checked`, rating: prompt.includes(marker) ? "no" : "yes" });
};

const RESPONSES = ["fine", "BASE_NO", "CAND_NO", "CAND_NO", "BASE_NO"];

let app: OpenedApp;
let fake: FakeOpenAIServer;
let server: AppServer;
let db: Db;
let page: Page;
let problems: string[];
let baseline = "";
let candidate = "";

beforeAll(async () => {
  fake = await startFakeOpenAIServer({ responder });
  app = await openApp();
  ({ server, db, page, problems } = app);
  const datasetId = await importRows(
    db,
    RESPONSES.map((response, i) => ({
      request_id: `r${i + 1}`,
      request: `How do I reset router ${i + 1}?`,
      response,
      expected_response: `Hold the reset button of router ${i + 1} for ten seconds.`,
      retrieved_context: [
        { doc_uri: `docs://router/${i + 1}`, content: `Router ${i + 1}: hold reset for ten seconds.` },
        { doc_uri: "docs://router/old", content: "STALE: routers before 2019 reset from the web page." },
      ],
    })),
  );
  const judged = async (model: string, name: string) =>
    (
      await runToCompletion(
        db,
        { datasetId, name, metrics: [SAFETY, CHUNK_RELEVANCE], judge: { provider: "openai", model } },
        fake.url,
      )
    ).runId;
  baseline = await judged("judge-a", "Router bot v1");
  candidate = await judged("judge-b", "Router bot v2");
}, 120_000);

afterAll(async () => {
  await app?.close();
  await fake?.close();
});

/** The flip list's links, in the order the compare page lists them, as (row, metric). */
async function listedFlips(query: string): Promise<{ row: string; metric: string }[]> {
  await page.goto(`${server.baseUrl}/compare?runs=${baseline},${candidate}&baseline=${baseline}${query}`);
  await page.locator("[data-testid=flip-list]").waitFor();
  const hrefs = await page
    .locator("[data-testid=flip] a")
    .evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
  return hrefs.map((href) => {
    const params = new URL(href, "http://x").searchParams;
    return { row: params.get("row")!, metric: params.get("metric")! };
  });
}

function shownFlip(): { row: string; metric: string } {
  const params = new URL(page.url()).searchParams;
  return { row: params.get("row")!, metric: params.get("metric")! };
}

async function press(key: string, expected: { row: string; metric: string }): Promise<void> {
  await page.keyboard.press(key);
  await page.waitForURL(
    (url) => url.searchParams.get("row") === expected.row && url.searchParams.get("metric") === expected.metric,
  );
  await waitForHydration(page, "[data-testid=flip-place]");
}

describe("a flipped row side by side", () => {
  it("shows the row's ground truth and its retrieved chunks with both runs' per-chunk verdicts", async () => {
    await listedFlips("");
    // The compare page above the list: both judges in the header, the note beside safety's verdict, one summary line.
    expect(await page.locator("[data-testid=run-judging]").innerText()).toMatch(/judge-a[\s\S]*judge-b/);
    expect(await page.locator(`tr[data-metric="${SAFETY}"] [data-testid=judged-differently]`).innerText()).toContain(
      "Judged differently: judge-a vs judge-b",
    );
    expect(await page.locator("[data-testid=verdict-summary]").innerText()).toMatch(
      /^\d+ real regressions?, \d+ real improvements?, \d+ likely noise \(\d+ verdicts? compares? runs judged differently\)$/,
    );
    await screenshot(page, "compare-judged-differently");
    await page.goto(`${server.baseUrl}${await page.locator("[data-testid=flip] a").first().getAttribute("href")}`);
    await page.locator("[data-testid=ground-truth]").waitFor();
    const requestId = await page.locator("h1 code").innerText();
    const number = requestId.replace("r", "");
    expect(await page.locator("[data-testid=ground-truth]").innerText()).toContain(
      `Hold the reset button of router ${number} for ten seconds.`,
    );
    const chunks = page.locator("[data-testid=retrieved-context] [data-testid=chunk]");
    expect(await chunks.count()).toBe(2);
    const stale = await chunks
      .nth(1)
      .locator("[data-testid=chunk-verdict]")
      .evaluateAll((rows) => rows.map((row) => (row as HTMLElement).innerText.replace(/\s+/g, " ").trim()));
    expect(stale).toHaveLength(2);
    expect(stale[0]).toMatch(/^Baseline\b.*\byes\b.*chunk_relevance judge-a read chunk 2/i);
    expect(stale[1]).toMatch(/^Candidate\b.*\bno\b.*chunk_relevance judge-b read chunk 2/i);
    await expectNoCrashText(page);
    await screenshot(page, "compare-row-context");
  });

  it("steps through the flips with j and k in the list's order, and n to the next regression", async () => {
    const flips = await listedFlips("");
    const regressions = (await page
      .locator("[data-testid=flip]")
      .evaluateAll((rows) =>
        rows.map((row) => row.textContent?.includes("yes → no") || row.textContent?.includes("pass → fail")),
      )) as boolean[];
    expect(flips.length).toBeGreaterThanOrEqual(4);
    expect(flips.filter((f) => f.metric === SAFETY).map((f) => f.row)).toHaveLength(4);
    await page.locator("[data-testid=flip] a").first().click();
    await page.waitForURL((url) => url.pathname === "/compare/row");
    await waitForHydration(page, "[data-testid=flip-place]");
    expect(await page.locator("[data-testid=flip-keys]").innerText()).toContain("j next flip");
    for (let i = 0; i < flips.length; i++) {
      expect(shownFlip()).toEqual(flips[i]);
      expect(await page.locator("[data-testid=flip-place]").innerText()).toBe(`flip ${i + 1} of ${flips.length}`);
      if (i === 1) await screenshot(page, "compare-row-stepping");
      if (i + 1 < flips.length) await press("j", flips[i + 1]);
    }
    expect(await page.getByRole("link", { name: /Next flip/ }).count()).toBe(0);
    await press("k", flips[flips.length - 2]);
    // n: the next regression in the list's order, from the first again after the last (regressions come first).
    const firstRegression = regressions.indexOf(true);
    await press("n", flips[firstRegression]);
    const secondRegression = regressions.indexOf(true, firstRegression + 1);
    await press("n", flips[secondRegression]);
  });

  it("keeps the list's filters: j and the place count only the filtered flips, and the way back keeps them", async () => {
    const flips = await listedFlips(`&direction=regressions&metric=${encodeURIComponent(SAFETY)}`);
    expect(flips.map((f) => f.metric)).toEqual([SAFETY, SAFETY]);
    await page.locator("[data-testid=flip] a").first().click();
    await page.waitForURL((url) => url.pathname === "/compare/row");
    await waitForHydration(page, "[data-testid=flip-place]");
    expect(await page.locator("[data-testid=flip-place]").innerText()).toBe("flip 1 of 2 · regressions on safety");
    await press("j", flips[1]);
    expect(await page.locator("[data-testid=flip-place]").innerText()).toBe("flip 2 of 2 · regressions on safety");
    await page.locator("main").getByRole("link", { name: "Compare", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/compare");
    const back = new URL(page.url()).searchParams;
    expect(back.get("direction")).toBe("regressions");
    expect(back.get("metric")).toBe(SAFETY);
    expect(problems).toEqual([]);
  });

  it("reads the metrics compared together, Holm by default, and reads them one by one when asked", async () => {
    await listedFlips("&metric=" + encodeURIComponent(SAFETY));
    const correction = page.locator("[data-testid=correction]");
    // The family: the metrics with a paired test (a metric judged in one run only is not in it).
    const sentence = await correction.locator("p").innerText();
    const family = Number(/^Verdicts read the (\d+) metrics compared together \(Holm\)/.exec(sentence)?.[1]);
    expect(family).toBeGreaterThanOrEqual(2);
    expect(sentence).toContain("the chance of any false “real” verdict among them stays under 5 %.");
    expect(await correction.getByRole("link", { name: "Holm (default)" }).getAttribute("aria-current")).toBe("true");
    // A tested delta's words name the correction when there is more than one metric.
    expect(await page.locator("main").innerText()).toContain(`after correcting for ${family} metrics`);
    await screenshot(page, "compare-correction-holm");
    await correction.getByRole("link", { name: "None" }).click();
    // The flip list's filter stays; the verdicts are each metric's own.
    await page.waitForURL(
      (url) => url.searchParams.get("correction") === "none" && url.searchParams.get("metric") === SAFETY,
    );
    await expect
      .poll(() => correction.locator("p").innerText())
      .toBe(
        "No correction: each metric is tested on its own at 0.05, so with many metrics some “real” verdicts are noise.",
      );
    expect(await page.locator("main").innerText()).not.toContain("after correcting for");
    // The exports read the metrics as the page does.
    expect(await page.getByRole("link", { name: "Export statistics CSV" }).getAttribute("href")).toContain(
      "correction=none",
    );
  });
});
