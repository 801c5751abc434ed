// The labelling queue for several people, on either store, in Chromium with sign-in on: an admin asks
// for two labels per row with the judge hidden; one labeller labels blind; a second is offered the same
// row, sees no one's label nor the judge until giving theirs, then sees where they differ; the admin
// decides between them with a reason, and the decision is the gold label.
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import type { Dialect } from "@/lib/db/store/dialect";
import { createRun } from "@/lib/engine/createRun";
import { importRows } from "../support/engineKit";
import type { AppServer } from "./appServer";
import { createUsers, E2E_AUTH_SECRET, USERS, type TestUser } from "./authSession";
import { signInThroughPage } from "./signInPage";
import { expectNoCrashText, openApp, screenshot, waitForEffects, waitForHydration, type OpenedApp } from "./helpers";

const METRIC = "response/llm_judged/relevance_to_query";
const SECOND: TestUser = {
  role: "runner",
  email: "rob@example.com",
  name: "Rob Runner",
  password: "runner password 5678",
};

export function describeBlindQueue(store: Dialect): void {
  let app: OpenedApp;
  let server: AppServer;
  let db: Db;
  let page: Page;
  let runId = "";
  let datasetId = "";

  beforeAll(async () => {
    app = await openApp({ store, env: { ASSAY_AUTH_SECRET: E2E_AUTH_SECRET } });
    ({ server, db, page } = app);
    await createUsers(server.databaseUrl, [USERS.admin, USERS.runner, SECOND]);
    datasetId = await importRows(
      db,
      Array.from({ length: 6 }, (_, i) => ({
        request_id: `q-${i + 1}`,
        request: `How do I rotate the API key of project ${i + 1}?`,
        response: `Open project ${i + 1}'s settings, choose Keys, then Rotate.`,
      })),
    );
    runId = await createRun(db, {
      datasetId,
      metrics: [METRIC],
      judge: { provider: "heuristic", model: "offline" },
      name: "keys-bot",
    });
    for (;;) {
      if ((await db.run.count({ where: { id: runId, status: "completed" } })) === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 240_000);

  afterAll(async () => {
    await app?.close();
  });

  // Each person signs in once (the sign-in rate limit counts attempts per address); switching back restores their cookies.
  const sessions = new Map<string, Awaited<ReturnType<BrowserContext["cookies"]>>>();
  async function signInAs(user: TestUser): Promise<void> {
    const context = page.context();
    await context.clearCookies();
    const saved = sessions.get(user.email);
    if (saved) {
      await context.addCookies(saved);
      return;
    }
    await signInThroughPage(page, server.baseUrl, user, { from: `/runs/${runId}/label`, problems: app.problems });
    sessions.set(user.email, await context.cookies());
  }

  const queueUrl = () => `${server.baseUrl}/runs/${runId}/label?queue=${encodeURIComponent(METRIC)}`;

  /** Opens the queue's first row and labels it with the keyboard; returns the row's id. */
  async function labelFirstQueuedRow(answer: "y" | "n"): Promise<string> {
    await page.goto(queueUrl());
    await waitForHydration(page, "[data-testid=labelling-queue]");
    await page.locator("[data-testid=labelling-queue] ol a").first().click();
    await page.waitForURL((url) => url.pathname.includes("/rows/"));
    const rowId = new URL(page.url()).pathname.split("/").at(-1) ?? "";
    const target = page.locator(`[data-testid=label-controls] li[data-label-target="relevance_to_query"]`);
    await waitForHydration(page, "[data-testid=label-controls] button");
    await waitForEffects(page);
    expect(await target.innerText()).toContain("hidden until you label");
    expect(await page.locator("[data-testid=judges-hidden]").innerText()).toContain("relevance_to_query");
    await page.keyboard.press((await target.locator("kbd").innerText()).trim());
    await page.keyboard.press(answer);
    await expect
      .poll(() => target.locator("[data-testid=current-label]").innerText(), { timeout: 10_000 })
      .toMatch(answer === "y" ? /^label: yes/ : /^label: no\b/);
    return rowId;
  }

  describe(`the labelling queue for several people (${store})`, () => {
    it("an admin asks for two labels per row with the judge hidden", async () => {
      await signInAs(USERS.admin);
      await page.goto(queueUrl());
      await waitForHydration(page, "[data-testid=queue-setting] button");
      await page.locator("[data-testid=queue-setting] select[name=labelsPerRow]").selectOption("2");
      await page.locator("[data-testid=queue-setting] input[name=hideJudge]").check();
      await page.locator("[data-testid=queue-setting] button").click();
      await expect.poll(() => page.locator("[data-testid=queue-setting] [role=status]").innerText()).toBe("Saved.");
      await page.reload();
      await expect.poll(() => page.locator("[data-testid=queue-people]").innerText()).toContain("2 people labelled it");
    });

    let firstRow = "";
    it("the first labeller labels blind: no judge's verdict in the queue or on the row until they label", async () => {
      await signInAs(USERS.runner);
      await page.goto(queueUrl());
      await waitForHydration(page, "[data-testid=labelling-queue]");
      expect(await page.locator("[data-testid=labelling-queue] ol").innerText()).not.toContain("judge said");
      await screenshot(page, `blind-queue-first-labeller-${store}`);
      firstRow = await labelFirstQueuedRow("y");
      // Once labelled, the judge's verdict is back.
      await page.reload();
      await expect.poll(() => page.locator("[data-testid=judges-hidden]").count()).toBe(0);
      await expectNoCrashText(page);
    });

    it("the second labeller is offered the same row, blind to the first's label until giving theirs", async () => {
      await signInAs(SECOND);
      await page.goto(queueUrl());
      await waitForHydration(page, "[data-testid=labelling-queue]");
      // The first labeller's row still needs a second label; the queue's first row is the same (a stable order).
      const first = page.locator("[data-testid=labelling-queue] ol a").first();
      expect(await first.getAttribute("href")).toContain(firstRow);
      await first.click();
      await page.waitForURL((url) => url.pathname.endsWith(firstRow));
      await waitForHydration(page, "[data-testid=label-controls] button");
      expect(await page.locator("[data-testid=labels-hidden]").innerText()).toContain("1 other label is hidden");
      expect(await page.locator("[data-testid=row-labels]").innerText()).not.toContain("Rita");
      await screenshot(page, `blind-row-second-labeller-${store}`);
      const rowId = await labelFirstQueuedRowAgain();
      expect(rowId).toBe(firstRow);
      await page.reload();
      const everyone = page.locator("[data-testid=people-labels]");
      await expect.poll(() => everyone.innerText()).toContain("people differ");
      expect(await everyone.innerText()).toContain("Rita Runner");
      await screenshot(page, `blind-row-revealed-${store}`);
    });

    it("the admin decides between them with a reason; the decision is the gold label", async () => {
      await signInAs(USERS.admin);
      await page.goto(`${server.baseUrl}/runs/${runId}/rows/${firstRow}`);
      await waitForHydration(page, "[data-testid=adjudicate-form] button");
      const form = page.locator("[data-testid=adjudicate-form]");
      await form.locator("select[name=value]").selectOption("yes");
      await form.locator("input[name=reason]").fill("The answer names the exact menu path the user asked for.");
      await form.locator("button[type=submit]").first().click();
      await expect.poll(() => form.locator("[role=status]").innerText()).toBe("Decided.");
      await page.reload();
      await expect
        .poll(() => page.locator("[data-testid=adjudication]").innerText())
        .toContain("The answer names the exact menu path");
      const gold = await db.humanLabel.findFirst({ where: { rowId: firstRow, metric: METRIC } });
      expect(gold).toMatchObject({ rating: "yes", gold: "adjudicated", labels: 2 });
      // The admin gave no label of their own: what their labels card shows is the gold label, said so.
      const target = page.locator(`[data-testid=label-controls] li[data-label-target="relevance_to_query"]`);
      expect(await target.innerText()).toContain("gold label of several people");
      await screenshot(page, `adjudication-${store}`);
    });
  });

  /** The second labeller is already on the row: label it there. */
  async function labelFirstQueuedRowAgain(): Promise<string> {
    const target = page.locator(`[data-testid=label-controls] li[data-label-target="relevance_to_query"]`);
    await waitForEffects(page);
    expect(await target.innerText()).toContain("hidden until you label");
    await page.keyboard.press((await target.locator("kbd").innerText()).trim());
    await page.keyboard.press("n");
    await expect
      .poll(() => target.locator("[data-testid=current-label]").innerText(), { timeout: 10_000 })
      .toMatch(/^label: no\b/);
    return new URL(page.url()).pathname.split("/").at(-1) ?? "";
  }
}
