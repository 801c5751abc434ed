// Labels in Chromium with accounts on: a label belongs to the answer it judged. Row 1 is labelled
// on the dataset's responses; a run that generated its own answers shows that label as "labelled on
// another response", counts it nowhere and says how many it left out. The agreement panel always
// links the queue, the queue shows each request's first line, a judge keeps its label key on every
// run, a metric skipped for the row is not offered, ↑ / ↓ reach every line, and a viewer sees the
// labels without buttons or keys.
import { createHash } from "node:crypto";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { HEURISTIC_MODEL } from "@/lib/judges/heuristic";
import { importRows, runToCompletion } from "../support/engineKit";
import type { AppServer } from "./appServer";
import { createUsers, E2E_AUTH_SECRET, USERS, type TestUser } from "./authSession";
import { expectNoCrashText, openApp, screenshot, waitForEffects, waitForHydration, type OpenedApp } from "./helpers";

const G = "response/llm_judged/groundedness";
const C = "response/llm_judged/correctness";
const S = "response/llm_judged/safety";
const heuristic = { provider: "heuristic" as const, model: HEURISTIC_MODEL };
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

let app: OpenedApp;
let server: AppServer;
let db: Db;
let page: Page;
let problems: string[];
let datasetId = "";
let datasetRun = "";
let generatedRun = "";
let smallerRun = "";
const rowIds = new Map<number, string>();

const chunk = (content: string) => [{ content, doc_uri: "docs/retention.md" }];

/** Signs in through the sign-in form, from a page that needs a session. */
async function signInAs(user: TestUser) {
  await page.context().clearCookies();
  await page.goto(`${server.baseUrl}/datasets`);
  await page.waitForURL((url) => url.pathname === "/signin");
  await waitForHydration(page, "[data-testid=signin-form]");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname === "/datasets");
  await page.locator("[data-testid=signout-control]", { hasText: `(${user.role})` }).waitFor();
}

beforeAll(async () => {
  app = await openApp({ env: { ASSAY_AUTH_SECRET: E2E_AUTH_SECRET } });
  ({ server, db, page, problems } = app);
  await createUsers(server.databaseUrl);
  datasetId = await importRows(db, [
    {
      request_id: "row-0001",
      request: "How long are deleted objects kept?\nI mean in the recycle bin.",
      response: "Deleted objects are kept for 30 days.",
      expected_response: "30 days.",
      retrieved_context: chunk("Deleted objects are kept for 30 days in the recycle bin."),
      human_labels: { groundedness: "no", correctness: "yes" },
    },
    {
      request_id: "row-0002",
      request: "Can retention be extended?",
      response: "Yes, to 90 days on the Pro plan.",
      expected_response: "Yes, 90 days on Pro.",
      retrieved_context: chunk("Retention can be extended to 90 days on the Pro plan."),
    },
    {
      // No expected response: correctness is skipped for this row.
      request_id: "row-0003",
      request: "Where are the retention settings?",
      response: "Under Settings, Retention.",
      retrieved_context: chunk("The retention settings are under Settings, Retention."),
    },
  ]);
  for (const row of await db.datasetRow.findMany({ where: { datasetId } })) rowIds.set(row.rowNumber, row.id);
  const run = (name: string, metrics: string[]) =>
    runToCompletion(db, { datasetId, name, metrics, judge: heuristic, concurrency: 1 }, null);
  datasetRun = (await run("Dataset answers", [G, C, S])).runId;
  smallerRun = (await run("Safety and groundedness", [S, G])).runId;
  // A run that generated its own answers, as the engine stores one: its generations with their
  // hashes and the judge's verdicts on them (the heuristic judge's, copied from the dataset run).
  const source = await db.run.findUniqueOrThrow({ where: { id: datasetRun }, include: { judgments: true } });
  const generated = await db.run.create({
    data: {
      datasetId,
      name: "Generated answers",
      status: "completed",
      judgeProvider: source.judgeProvider,
      judgeModel: source.judgeModel,
      config: source.config,
      generationModel: "candidate-gen",
    },
  });
  generatedRun = generated.id;
  for (const [rowNumber, rowId] of rowIds) {
    const response = `A generated answer to question ${rowNumber}.`;
    await db.generation.create({
      data: {
        runId: generatedRun,
        rowId,
        status: "done",
        response,
        responseHash: sha256(response),
        model: "candidate-gen",
        latencySeconds: 0.4,
        finishedAt: new Date(),
        templateVersion: "rag_answer/v1",
        templateHash: sha256("template"),
        promptHash: sha256(`prompt ${rowNumber}`),
      },
    });
  }
  for (const { id: _id, runId: _runId, ...judgment } of source.judgments)
    await db.judgmentItem.create({ data: { ...judgment, runId: generatedRun } });
  await signInAs(USERS.admin);
}, 240_000);

afterAll(async () => app?.close());

const line = (name: string) => page.locator(`[data-testid=label-controls] li[data-label-target="${name}"]`);

async function openRow(runId: string, rowNumber: number) {
  await page.goto(`${server.baseUrl}/runs/${runId}/rows/${rowIds.get(rowNumber)}`);
  await page.locator("[data-testid=row-labels]").waitFor();
  await waitForEffects(page);
}

describe("labels belong to the answer they judged", () => {
  it("the generated run shows row 1's label as given on another response, not as a disagreement", async () => {
    await openRow(generatedRun, 1);
    const label = line("groundedness").locator("[data-testid=current-label]");
    expect(await label.innerText()).toBe("label: no (labelled on another response)");
    expect(await label.getAttribute("data-other-response")).toBe("true");
    expect(await page.locator("[data-testid=label-other-response-note]").innerText()).toContain(
      "2 labels were given on another response than the one this run judged",
    );
    // That label is the dataset run's to clear: no Clear here (labelling replaces it).
    expect(
      await line("groundedness")
        .getByRole("button", { name: /^Clear the label/ })
        .count(),
    ).toBe(0);
    await page.locator("[data-testid=row-labels]").scrollIntoViewIfNeeded();
    await screenshot(page, "70-drilldown-labelled-on-another-response");
    // On the dataset's own answers the same label is compared as before, and can be cleared.
    await openRow(datasetRun, 1);
    expect(await line("groundedness").locator("[data-testid=current-label]").getAttribute("data-other-response")).toBe(
      "false",
    );
    expect(
      await line("groundedness")
        .getByRole("button", { name: /^Clear the label/ })
        .count(),
    ).toBe(1);
  });

  it("names a label whose labeller's account was removed 'a removed user', never by its id", async () => {
    const label = await db.humanLabel.findFirstOrThrow({ where: { rowId: rowIds.get(1), metric: C } });
    await db.humanLabel.update({ where: { id: label.id }, data: { labelledBy: "removed-account-id", source: "ui" } });
    try {
      await openRow(datasetRun, 1);
      const card = await page.locator("[data-testid=row-labels]").innerText();
      expect(card).toContain("by a removed user");
      expect(card).not.toContain("removed-account-id");
    } finally {
      await db.humanLabel.update({
        where: { id: label.id },
        data: { labelledBy: label.labelledBy, source: label.source },
      });
    }
  });

  it("the generated run's rows table marks it and its agreement panel counts it apart, linking the queue", async () => {
    await page.goto(`${server.baseUrl}/runs/${generatedRun}`);
    const marker = page.locator("[data-testid=label-marker]").first();
    await marker.waitFor();
    expect(await marker.getAttribute("data-other-response")).toBe("true");
    expect(await marker.getAttribute("data-disagrees")).toBe("false");
    const panel = page.locator("[data-testid=agreement-panel]");
    expect(await panel.locator("[data-testid=agreement-other-response]").innerText()).toContain(
      "2 labels left out: given on another response",
    );
    // No label counts on this run, and the queue is still one click away.
    expect(await panel.innerText()).toContain("No human labels on this run's judged metrics yet");
    await panel.locator("[data-testid=agreement-queue-link]").click();
    await page.waitForURL((url) => url.pathname === `/runs/${generatedRun}/label`);
    await page.locator("[data-testid=labelling-queue]").waitFor();
    // One sentence, not "left out: given on another response …: not counted above".
    expect(await page.locator("[data-testid=queue-other-response]").innerText()).toBe(
      "1 label was given on another response than the one this run judged, so it is left out of the counts above " +
        "and not offered here; labelling its row again replaces its label.",
    );
    await screenshot(page, "72-queue-other-response");
    await page.goto(`${server.baseUrl}/runs/${generatedRun}`);
    await page.locator("[data-testid=agreement-panel]").scrollIntoViewIfNeeded();
    await screenshot(page, "71-agreement-panel-other-response");
    await expectNoCrashText(page);
  });

  it("the queue shows each request's first line as plain text", async () => {
    await page.goto(`${server.baseUrl}/runs/${datasetRun}/label?queue=${encodeURIComponent(S)}&target=10`);
    const requests = page.locator("[data-testid=labelling-queue] [data-testid=queue-request]");
    await expect.poll(() => requests.count()).toBe(3);
    expect((await requests.allInnerTexts()).sort()).toEqual([
      "Can retention be extended?",
      "How long are deleted objects kept?",
      "Where are the retention settings?",
    ]);
    await screenshot(page, "72-queue-request-lines");
  });

  it("a judge keeps its key on every run, a skipped metric is not offered, and ↑ / ↓ reach every line", async () => {
    await openRow(datasetRun, 1);
    const keyOf = async (name: string) => (await line(name).locator("[data-testid=label-line-key]").innerText()).trim();
    const onDatasetRun = await keyOf("groundedness");
    await openRow(smallerRun, 1);
    expect(await keyOf("groundedness")).toBe(onDatasetRun);

    // Row 3 has no expected response: correctness was skipped, so there is nothing to label.
    await openRow(datasetRun, 3);
    expect(await line("correctness").count()).toBe(0);
    expect(await line("groundedness").count()).toBe(1);

    await waitForHydration(page, "[data-testid=label-controls] button");
    await page.keyboard.press(await keyOf("groundedness"));
    await expect.poll(() => line("groundedness").getAttribute("aria-current")).toBe("true");
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => line("safety").getAttribute("aria-current")).toBe("true");
    expect(await line("groundedness").getAttribute("aria-current")).toBeNull();
    await page.keyboard.press("ArrowUp");
    await expect.poll(() => line("groundedness").getAttribute("aria-current")).toBe("true");
    await page.keyboard.press("Escape");
  });

  it("a viewer sees the labels, without label buttons or keys", async () => {
    await signInAs(USERS.viewer);
    await openRow(datasetRun, 1);
    expect(await line("groundedness").locator("[data-testid=current-label]").innerText()).toMatch(/^label: no/);
    expect(await page.locator("[data-testid=label-controls] button").count()).toBe(0);
    expect(await page.locator("[data-testid=label-line-key]").count()).toBe(0);
    expect(await page.locator("[data-testid=label-keys]").count()).toBe(0);
    expect(await page.locator("[data-testid=label-read-only]").innerText()).toContain(
      "giving them needs the runner or admin role",
    );
    // Its keys do nothing either: nothing picked, nothing saved.
    const before = await db.humanLabelRevision.count();
    await page.keyboard.press("3");
    await page.keyboard.press("y");
    await waitForEffects(page);
    expect(await page.locator("[data-testid=label-controls] li[aria-current]").count()).toBe(0);
    expect(await db.humanLabelRevision.count()).toBe(before);
    await page.locator("[data-testid=row-labels]").scrollIntoViewIfNeeded();
    await screenshot(page, "73-drilldown-viewer");
    expect(problems).toEqual([]);
  });
});
