// Pairwise judging in Chromium on the built app, on either store, through the fake OpenAI server: two uploads of the same requests
// (the candidate's answers carry a marker the fake judge prefers), compared; the compare page's pairwise panel
// starts a judgment in both orders, shows its progress, then B's win, the outcome bar and the judge's
// diagnostics; the API starts a one-order comparison and follows it, and compare's API reads the verdict.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Dialect } from "@/lib/db/store/dialect";
import type { Db } from "@/lib/db/client";
import { createRun } from "@/lib/engine/createRun";
import { importRows } from "../support/engineKit";
import type { Responder } from "../support/fakeOpenAIServer";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import { markerResponder } from "../support/fakePairwiseResponders";
import type { AppServer } from "./appServer";
import { openAppWithFakeLlm, type FakeLlmApp } from "./fakeLlmApp";
import { expectNoCrashText, screenshot, waitForHydration } from "./helpers";

const ROWS = 24;
const prefersMarked = markerResponder("BETTER");
const responder: Responder = (body, ctx) => prefersMarked(body, ctx) ?? fakeJudgeResponder(body, ctx);

/** The whole walk on one store: SQLite (pairwise.test.ts) and PostgreSQL (pairwisePostgres.test.ts). */
export function describePairwise(store: Dialect): void {
  let app: FakeLlmApp;
  let server: AppServer;
  let db: Db;
  let page: Page;
  let problems: string[];
  let baseline = "";
  let candidate = "";

  function rows(marker: string) {
    return Array.from({ length: ROWS }, (_, i) => ({
      request_id: `q-${i}`,
      request: `How do I reset the password of account ${i}?`,
      response: `${marker}Open Settings, choose Security, then Reset password for account ${i}.`,
      expected_response: `Settings → Security → Reset password (account ${i}).`,
    }));
  }

  beforeAll(async () => {
    app = await openAppWithFakeLlm({ responder, latencyMs: 5, store });
    ({ server, db, page, problems } = app);
    const judge = { provider: "heuristic" as const, model: "offline" };
    const metrics = ["response/llm_judged/safety"];
    baseline = await createRun(db, {
      datasetId: await importRows(db, rows("")),
      metrics,
      judge,
      name: "support-bot v1",
    });
    candidate = await createRun(db, {
      datasetId: await importRows(db, rows("BETTER ")),
      metrics,
      judge,
      name: "support-bot v2",
    });
    for (;;) {
      const done = await db.run.count({ where: { id: { in: [baseline, candidate] }, status: "completed" } });
      if (done === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 240_000);

  afterAll(async () => {
    await app?.close();
  });

  async function api(path: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${server.baseUrl}${path}`, {
      ...init,
      headers: { "content-type": "application/json", origin: server.baseUrl, ...init.headers },
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  describe(`pairwise judging on the compare page (${store})`, () => {
    it("offers it with its call count, judges both orders, and shows B's win with the judge's diagnostics", async () => {
      await page.goto(`${server.baseUrl}/compare?runs=${baseline},${candidate}&baseline=${baseline}`);
      await waitForHydration(page, "[data-testid=start-pairwise]");
      const start = page.getByTestId("start-pairwise");
      expect(await start.textContent()).toBe(`Judge ${ROWS} pairs: ${2 * ROWS} calls`);
      await page.getByLabel(/One order/).check();
      expect(await start.textContent()).toBe(`Judge ${ROWS} pairs: ${ROWS} calls`);
      await page.getByLabel(/Both orders/).check();
      await page.getByTestId("pairwise-panel").scrollIntoViewIfNeeded();
      await screenshot(page, `pairwise-start-${store}`);
      await start.click();
      const verdict = page.getByTestId("pairwise-verdict");
      await verdict.filter({ hasText: "Real improvement" }).waitFor({ timeout: 60_000 });
      expect(await verdict.textContent()).toMatch(
        /^Real improvement(?: after correcting for \d+ metrics)?: B wins 100\.0% of 24 pairs/,
      );
      const diagnostics = await page.getByTestId("pairwise-diagnostics").textContent();
      expect(diagnostics).toContain("Position consistency100.0% of 24");
      expect(diagnostics).toContain("First-shown answer wins50.0% of 48");
      expect(await page.getByTestId("verdict-summary").textContent()).toMatch(/real improvement/);
      await expectNoCrashText(page);
      await page.getByTestId("pairwise-panel").scrollIntoViewIfNeeded();
      await screenshot(page, `pairwise-result-${store}`);
      expect(problems).toEqual([]);
    }, 120_000);

    it("lists the pairs B won, opens one side by side with the differences marked, and takes the reviewer's verdict by key", async () => {
      await page.goto(
        `${server.baseUrl}/compare?runs=${baseline},${candidate}&baseline=${baseline}&metric=pairwise/overall&direction=improvements#flips`,
      );
      const listed = page.locator("[data-testid=flip]");
      expect(await listed.count()).toBe(ROWS);
      expect(await listed.first().innerText()).toContain("B won");
      await listed.first().locator("a").click();
      await page.waitForURL((url) => url.pathname === "/compare/row");
      await waitForHydration(page, "[data-testid=prefer-b]");
      expect(await page.getByTestId("diff-summary").textContent()).toMatch(/^1 word differs/);
      expect(await page.getByTestId("flip-place").textContent()).toBe(`pair 1 of ${ROWS} · B won on overall`);
      expect(await page.getByTestId("flip-keys").textContent()).toContain("j next pair, k previous pair");
      expect(await page.locator("[data-testid=candidate-response] mark").allTextContents()).toEqual(["BETTER "]);
      const verdicts = await page.getByTestId("pair-verdict-overall").innerText();
      expect(verdicts).toMatch(/B better/);
      expect(verdicts).toContain("A shown first");
      expect(verdicts).toContain("B shown first");
      await screenshot(page, `pairwise-side-by-side-${store}`);
      await page.keyboard.press("b");
      await page.getByTestId("preference-status").filter({ hasText: "Saved." }).waitFor();
      expect(await page.getByTestId("prefer-b").getAttribute("aria-pressed")).toBe("true");
      // j steps to the next pair of the list it was opened from.
      await page.keyboard.press("j");
      await page
        .getByTestId("flip-place")
        .filter({ hasText: `pair 2 of ${ROWS}` })
        .waitFor();
      await page.keyboard.press("k");
      await page
        .getByTestId("flip-place")
        .filter({ hasText: `pair 1 of ${ROWS}` })
        .waitFor();
      await waitForHydration(page, "[data-testid=prefer-b]");
      expect(await page.getByTestId("people-verdicts").innerText()).toMatch(/Local admin: B better/);
      expect(await page.getByTestId("prefer-b").getAttribute("aria-pressed")).toBe("true");
      await page.goto(`${server.baseUrl}/compare?runs=${baseline},${candidate}&baseline=${baseline}`);
      expect(await page.getByTestId("pairwise-agreement").innerText()).toMatch(
        /People's A\/B verdicts on these pairs: 1; κ not computed: one item/,
      );
      const csv = await (
        await fetch(
          `${server.baseUrl}/compare/export?runs=${baseline},${candidate}&baseline=${baseline}&format=csv&part=pairwise`,
        )
      ).text();
      const lines = csv.trim().split("\r\n");
      expect(lines[0]).toBe(
        "request_id,row_number,criterion,orders,verdict_a_first,verdict_b_first,pair_verdict,position_dependent,rationale_a_first,rationale_b_first,people_verdicts",
      );
      expect(lines).toHaveLength(ROWS + 1);
      expect(lines.filter((line) => line.endsWith(",local:B"))).toHaveLength(1);
      expect(problems).toEqual([]);
    }, 120_000);

    it("through the API: starts a one-order comparison, follows it, and compare reads the newest", async () => {
      const started = await api(`/api/v1/runs/${candidate}/pairwise`, {
        method: "POST",
        body: JSON.stringify({ baseline, orders: "one", seed: "ci-seed" }),
      });
      expect(started.status).toBe(202);
      expect(started.body).toMatchObject({
        status: "judging",
        orders: "one",
        seed: "ci-seed",
        progress: { total: ROWS },
      });
      let detail = started.body;
      for (let i = 0; i < 300 && detail.status !== "completed"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        detail = (await api(`/api/v1/pairwise/${String(started.body.id)}`)).body;
      }
      // Every prompt of one order per row was asked in the both-order comparison above: answered from the judge cache.
      expect(detail).toMatchObject({ status: "completed", spent: { llmCalls: 0 }, progress: { done: ROWS } });
      const [criterion] = detail.criteria as { verdict: string; wins: number; positionConsistency: unknown }[];
      expect(criterion).toMatchObject({ verdict: "better", wins: ROWS, positionConsistency: null });
      const compared = await api(`/api/v1/compare?runs=${baseline},${candidate}`);
      const pairwise = compared.body.pairwise as { id: string; criteria: { metric: string; verdict: string }[] }[];
      expect(pairwise.map((p) => p.id)).toEqual([started.body.id]);
      expect(pairwise[0].criteria[0]).toMatchObject({ metric: "pairwise/overall", verdict: "better" });
      const refused = await api(`/api/v1/runs/${candidate}/pairwise`, {
        method: "POST",
        body: JSON.stringify({ baseline: candidate }),
      });
      expect(refused.status).toBe(409);

      // A custom criterion (prompts never asked before) on a budget of 5 calls: it stops there, keeping them.
      const follow = async (id: string, until: string) => {
        let detail: Record<string, unknown> = {};
        for (let i = 0; i < 300 && detail.status !== until; i++) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          detail = (await api(`/api/v1/pairwise/${id}`)).body;
        }
        return detail;
      };
      const limited = await api(`/api/v1/runs/${candidate}/pairwise`, {
        method: "POST",
        body: JSON.stringify({
          baseline,
          criteria: [{ name: "concise", instructions: "Prefer the shorter complete answer." }],
          budget: { calls: 5 },
        }),
      });
      expect(limited.status).toBe(202);
      const stopped = await follow(String(limited.body.id), "failed");
      expect(stopped).toMatchObject({ status: "failed", progress: { done: 5 }, spent: { llmCalls: 5 } });
      expect(stopped.errorMessage).toBe(
        `judging stopped at its budget of 5 LLM calls (raise it to judge the rest) with ${2 * ROWS - 5} of ${2 * ROWS} judgments left; what was judged is kept`,
      );
      // Another URL than the page already open (a hash alone would not load it again).
      await page.goto(
        `${server.baseUrl}/compare?runs=${baseline},${candidate}&baseline=${baseline}&candidate=${candidate}`,
      );
      await waitForHydration(page, "[data-testid=raise-pairwise-budget]");
      expect(await page.getByTestId("raise-pairwise-budget").inputValue()).toBe("10");
      await page.getByTestId("pairwise-panel").scrollIntoViewIfNeeded();
      await screenshot(page, `pairwise-budget-${store}`);
      const resumed = await api(`/api/v1/pairwise/${String(limited.body.id)}/resume`, {
        method: "POST",
        body: JSON.stringify({ budget: { calls: 1000 } }),
      });
      expect(resumed.status).toBe(202);
      expect(await follow(String(limited.body.id), "completed")).toMatchObject({
        status: "completed",
        budget: { calls: 1000 },
        spent: { llmCalls: 2 * ROWS },
      });
    }, 120_000);
  });
}
