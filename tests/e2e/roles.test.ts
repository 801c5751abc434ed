// Browser test with accounts on: a viewer, a runner and an admin each sign in
// through the sign-in page (users made with `npm run user:create`) and see
// only what their role may do; what they do shows who did it. Every page
// visited is checked with axe (the sign-in and users pages included).
import fs from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { SIGN_UP_MEANING } from "@/lib/auth/signUpWording";
import { readAllowedEmailDomains } from "@/lib/db/accounts/settingsQueries";
import { createRun } from "@/lib/engine/createRun";
import { HEURISTIC_MODEL } from "@/lib/judges/heuristic";
import { toJsonl } from "../support/evalFiles";
import { runToCompletion } from "../support/engineKit";
import type { AppServer } from "./appServer";
import { createUsers, E2E_AUTH_SECRET, USERS, type TestUser } from "./authSession";
import { signInThroughPage, signOutThroughPage } from "./signInPage";
import {
  expectNoCrashText,
  openApp,
  screenshot,
  tempDir,
  uploadThroughPage,
  waitForHydration,
  writeFile,
  type OpenedApp,
  SUPPORT_SAMPLE,
} from "./helpers";

let app: OpenedApp;
let server: AppServer;
let db: Db;
let page: Page;
let problems: string[];
let sampleId = "";
let completedRunId = "";
const files = tempDir();

beforeAll(async () => {
  app = await openApp({ env: { ASSAY_AUTH_SECRET: E2E_AUTH_SECRET } });
  ({ server, db, page, problems } = app);
  await createUsers(server.databaseUrl);
  sampleId = (await db.dataset.findFirstOrThrow({ where: { name: SUPPORT_SAMPLE } })).id;
  // A finished run to look at (made beside the server, as the CLI would: no creator).
  const { runId } = await runToCompletion(
    db,
    {
      datasetId: sampleId,
      name: "Finished sample run",
      metrics: ["response/llm_judged/safety", "response/llm_judged/relevance_to_query"],
      judge: { provider: "heuristic", model: HEURISTIC_MODEL },
      concurrency: 2,
      chunkMode: "batched",
    },
    null,
  );
  completedRunId = runId;
}, 240_000);

afterAll(async () => {
  await app?.close();
  fs.rmSync(files, { recursive: true, force: true });
});

function signIn(user: TestUser, from = "/datasets"): Promise<void> {
  return signInThroughPage(page, server.baseUrl, user, { from, problems, serverOutput: server.output });
}

const signOut = () => signOutThroughPage(page);

const nav = () => page.getByRole("navigation");

describe("a viewer", () => {
  it("is sent to the sign-in page, signs in, and sees no upload panel and no Users link", async () => {
    await signIn(USERS.viewer);
    expect(await page.getByRole("heading", { name: "Upload an evaluation set" }).count()).toBe(0);
    expect(await page.locator("[data-testid=upload-input]").count()).toBe(0);
    expect(await nav().getByRole("link", { name: "Users" }).count()).toBe(0);
    await screenshot(page, "roles-viewer-datasets");
  });

  it("reads a dataset without New run or its settings, and a run without re-judge, settings or delete", async () => {
    await page.goto(`${server.baseUrl}/datasets/${sampleId}`);
    await page.locator("h1").waitFor();
    expect(await page.getByRole("link", { name: "New run" }).count()).toBe(0);
    expect(await page.locator("[data-testid=dataset-settings]").count()).toBe(0);
    await page.goto(`${server.baseUrl}/runs/${completedRunId}`);
    await page.locator("h1").waitFor();
    await expect.poll(() => page.locator("h1").innerText()).toContain("Finished sample run");
    expect(await page.getByRole("button", { name: /Re-judge/ }).count()).toBe(0);
    expect(await page.getByText("Name, tags and deletion").count()).toBe(0);
    expect(await page.getByText("Delete this run…").count()).toBe(0);
    // Reading and exporting stay.
    expect(await page.getByRole("link", { name: "Export CSV" }).count()).toBe(1);
    expect(await page.locator("[data-testid=created-by]").innerText()).toBe("local");
    await screenshot(page, "roles-viewer-run");
  });

  it("is told, not shown, when opening the new-run form directly", async () => {
    await page.goto(`${server.baseUrl}/datasets/${sampleId}/runs/new`);
    await page.waitForURL((url) => url.pathname === "/signin");
    await expect.poll(() => page.locator("main").innerText()).toContain("who cannot start runs");
    expect(await page.locator("[data-testid=run-form]").count()).toBe(0);
    await signOut();
  });
});

describe("a runner", () => {
  let datasetId = "";

  it("uploads a dataset, shown as theirs", async () => {
    await signIn(USERS.runner);
    const file = writeFile(
      files,
      "runner.jsonl",
      toJsonl([
        { request_id: "r1", request: "Is versioning on by default?", response: "No, turn it on per bucket." },
        { request_id: "r2", request: "How long do deleted objects stay?", response: "Seven days." },
      ]),
    );
    datasetId = await uploadThroughPage(page, server.baseUrl, file, "Runner's set");
    expect(await page.locator("[data-testid=created-by]").innerText()).toBe(
      `${USERS.runner.name} <${USERS.runner.email}>`,
    );
    // May start runs, may not rename or delete the dataset.
    expect(await page.locator("[data-testid=dataset-settings]").count()).toBe(0);
    await page.goto(`${server.baseUrl}/datasets`);
    await expect.poll(() => page.locator("[data-testid=datasets-table]").innerText()).toContain(USERS.runner.name);
  });

  it("sees the raise-budget form on a budget-paused run of their own, and only the refusal on someone else's", async () => {
    const rita = await db.user.findFirstOrThrow({ where: { email: USERS.runner.email } });
    const pausedRun = async (name: string, createdById: string | null) => {
      const runId = await createRun(
        db,
        {
          datasetId: sampleId,
          name,
          metrics: ["response/llm_judged/safety"],
          judge: { provider: "heuristic", model: HEURISTIC_MODEL },
          concurrency: 1,
          chunkMode: "batched",
        },
        { createdById, budget: { calls: 1, tokens: null, usd: null } },
      );
      await db.run.update({
        where: { id: runId },
        data: { status: "paused", pauseReason: "budget", errorMessage: "Paused: budget of 1 LLM calls reached." },
      });
      return runId;
    };
    const own = await pausedRun("Rita's paused run", rita.id);
    await page.goto(`${server.baseUrl}/runs/${own}`);
    await page.locator("h1").waitFor();
    expect(await page.locator("[data-testid=raise-budget-form]").count()).toBe(1);
    // Started from the CLI (no creator): the operator's, so only an admin changes its budget.
    const operators = await pausedRun("Operator's paused run", null);
    await page.goto(`${server.baseUrl}/runs/${operators}`);
    await page.locator("h1").waitFor();
    expect(await page.locator("[data-testid=raise-budget-form]").count()).toBe(0);
    expect(await page.locator("[data-testid=raise-budget-refused]").innerText()).toBe(
      "Paused by its budget. Only the run's creator (whoever runs the server) or an admin can change its budget.",
    );
    await screenshot(page, "roles-runner-others-budget");
  });

  it("starts a run, shown as theirs, and cannot delete it", async () => {
    await page.goto(`${server.baseUrl}/datasets/${datasetId}`);
    await page.getByRole("link", { name: "New run" }).click();
    await page.waitForURL(/\/runs\/new$/);
    await waitForHydration(page, "[data-testid=run-form] button[type=submit]");
    await page.getByPlaceholder("gpt-4.1 + reranker v2").fill("Runner's run");
    await page.getByRole("button", { name: "Start run" }).click();
    await page.waitForURL((url) => /^\/runs\/[^/]+$/.test(url.pathname));
    await page.locator("[data-testid=run-status]", { hasText: "completed" }).waitFor({ timeout: 30_000 });
    expect(await page.locator("[data-testid=created-by]").innerText()).toBe(
      `${USERS.runner.name} <${USERS.runner.email}>`,
    );
    // Re-judging is a runner's. The status above turns "completed" from the page's own poll, a moment before the
    // server's refresh of the rest of the page brings the finished run's actions; deletion is not among them.
    await expect.poll(() => page.getByRole("button", { name: /Re-judge errored and failed/ }).count()).toBe(1);
    expect(await page.getByText("Name, tags and deletion").count()).toBe(0);
    expect(await page.getByText("Delete this run…").count()).toBe(0);
    const runId = new URL(page.url()).pathname.split("/").pop() ?? "";
    const rita = await db.user.findFirstOrThrow({ where: { email: USERS.runner.email } });
    expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).createdById).toBe(rita.id);
    await page.goto(`${server.baseUrl}/runs`);
    await expect.poll(() => page.locator("[data-testid=runs-table]").innerText()).toContain(USERS.runner.name);
    await signOut();
  });
});

describe("an admin", () => {
  it("has the Users link and the users page", async () => {
    await signIn(USERS.admin);
    await screenshot(page, "roles-admin-header");
    await nav().getByRole("link", { name: "Users" }).click();
    await page.waitForURL((url) => url.pathname === "/admin/users");
    for (const user of Object.values(USERS))
      await expect.poll(() => page.locator("main").innerText()).toContain(user.email);
    await screenshot(page, "roles-admin-users");
  });

  it("reads what sign-up on means, and limits sign-up to listed email domains", async () => {
    await page.goto(`${server.baseUrl}/admin/users`);
    await expect.poll(() => page.getByTestId("signup-meaning").innerText()).toBe(SIGN_UP_MEANING);
    await waitForHydration(page, "[data-testid=allowed-domains] button");
    const field = page.getByLabel("Allowed email domains for sign-up");
    await field.fill("example.com, not a domain");
    await page.getByRole("button", { name: "Save domains" }).click();
    await expect
      .poll(() => page.getByTestId("allowed-domains").innerText())
      .toContain("“not” is not a domain name. Write domains like example.com");
    expect(await readAllowedEmailDomains(db)).toEqual([]);
    await field.fill("example.com, @Lab.Example.org");
    await page.getByRole("button", { name: "Save domains" }).click();
    await expect
      .poll(() => page.getByTestId("allowed-domains").innerText())
      .toContain("Saved: example.com, lab.example.org.");
    expect(await readAllowedEmailDomains(db)).toEqual(["example.com", "lab.example.org"]);
    await page.reload();
    await expect.poll(() => field.inputValue()).toBe("example.com, lab.example.org");
    await screenshot(page, "roles-admin-signup-domains");
  });

  it("deletes a run from its page", async () => {
    const run = await db.run.findFirstOrThrow({ where: { name: "Runner's run" } });
    await page.goto(`${server.baseUrl}/runs/${run.id}`);
    await page.waitForLoadState("networkidle");
    await page.getByText("Name, tags and deletion").click();
    await page.getByRole("button", { name: "Delete this run…" }).click();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/runs");
    expect(await db.run.count({ where: { id: run.id } })).toBe(0);
    await expectNoCrashText(page);
    expect(problems).toEqual([]);
  });
});
