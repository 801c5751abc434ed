// A reviewer reads a conversation and its judges' verdicts, on either store, in Chromium on the built app judging
// through the fake OpenAI server: a dataset with one three-turn session (MLflow 3 traces carrying
// mlflow.trace.session and request times, listed out of order) whose third answer FORGETS the city the user gave
// in turn 1 and whose second answer BREAKS the run's guideline, one row whose request carries earlier turns, and one
// lone row; a run of every conversation judge. The anchor's page shows their verdicts and the blamed turns; a later
// turn's page links to the anchor; the
// dataset's row pages show the same conversation without verdicts. The fake's markers are listed in
// tests/support/fakeConversationResponder.ts. One file per store (conversation.test.ts, conversationPostgres.test.ts).
import fs from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONVERSATION_METRICS } from "@/lib/contract/conversationMetricCatalog";
import type { Db } from "@/lib/db/client";
import type { Dialect } from "@/lib/db/store/dialect";
import { fakeConversationResponder } from "../support/fakeConversationResponder";
import { fakeDeepEvalCallsResponder } from "../support/fakeDeepEvalCallsResponder";
import type { Responder } from "../support/fakeOpenAIServer";
import type { AppServer } from "./appServer";
import { openAppWithFakeLlm, type FakeLlmApp } from "./fakeLlmApp";
import { expectNoCrashText, screenshot, tempDir, uploadThroughPage, viewportScreenshot, writeFile } from "./helpers";
import { chooseOnly, openRunForm, startAndFinish } from "./runFormSteps";

const responder: Responder = (body, ctx) =>
  fakeConversationResponder(body, ctx) ?? fakeDeepEvalCallsResponder(body, ctx);

const MLFLOW_RETENTION = "conversation/llm_judged/knowledge_retention";
const DEEPEVAL_RETENTION = "conversation/deepeval/knowledge_retention";
const GUIDELINES = "conversation/llm_judged/conversational_guidelines";
const JUDGES = CONVERSATION_METRICS.length;

/** A one-span MLflow 3 trace of one turn of a session, asked at `time`, answering `answer`. */
function turnTrace(session: string, time: string, answer: string) {
  return {
    info: {
      trace_id: `tr-${session}-${time}`,
      request_time: time,
      state: "OK",
      trace_metadata: { "mlflow.trace_schema.version": "3", "mlflow.trace.session": session },
    },
    data: {
      spans: [
        {
          span_id: "root",
          parent_span_id: null,
          name: "travel_agent",
          start_time_unix_nano: "1000000000",
          end_time_unix_nano: "2500000000",
          attributes: { "mlflow.spanType": JSON.stringify("AGENT"), "mlflow.spanOutputs": JSON.stringify(answer) },
        },
      ],
    },
  };
}

const STORAGE_POLICY = [
  "You are the Northwind storage assistant.",
  ...Array.from({ length: 24 }, (_, i) => `Rule ${i + 1}: answer questions about buckets, regions and retention only.`),
].join("\n");

function rows(): string {
  return [
    // The file lists the session's second turn first: the request times order it.
    {
      request_id: "trip-2",
      request: "How long does the journey take?",
      trace: turnTrace("trip", "2026-11-01T09:01:00Z", "BREAKS About two hours on the TGV."),
    },
    {
      request_id: "trip-1",
      request: "FACT:city=Lyon I live in Lyon. Which trains go to Paris in the morning?",
      trace: turnTrace(
        "trip",
        "2026-11-01T09:00:00Z",
        "From **Lyon Part-Dieu**, TGV INOUI leaves at 7:04, 8:04 and 9:04; Ouigo at 7:58. <b>Book early</b>.",
      ),
    },
    {
      request_id: "trip-3",
      request: "Book me the 9:04 one, please.",
      trace: turnTrace("trip", "2026-11-01T09:02:00Z", "FORGETS Sure. Which city are you leaving from?"),
    },
    {
      request_id: "bucket",
      request: {
        messages: [
          // A long system message: the page opens it on a preview.
          { role: "system", content: STORAGE_POLICY },
          { role: "user", content: "My bucket is logs-eu." },
          { role: "assistant", content: "Noted: logs-eu." },
          { role: "user", content: "Which region is it in?" },
        ],
      },
      response: "logs-eu is in eu-west-1.",
    },
    { request_id: "solo", request: "Is there a night train?", response: "Not on this line." },
  ]
    .map((row) => JSON.stringify(row))
    .join("\n");
}

export function describeConversation(store: Dialect): void {
  let app: FakeLlmApp;
  let server: AppServer;
  let db: Db;
  let page: Page;
  let datasetId = "";
  let runId = "";
  const files = tempDir();

  beforeAll(async () => {
    app = await openAppWithFakeLlm({ responder, latencyMs: 2, store });
    ({ server, db, page } = app);
    datasetId = await uploadThroughPage(page, server.baseUrl, writeFile(files, "trip.jsonl", rows()), "Trip chats");
    await openRunForm(page, server.baseUrl, datasetId);
    await chooseOnly(
      page,
      CONVERSATION_METRICS.map((metric) => metric.label),
    );
    await page.getByLabel(/^Conversational guidelines \(one per line/).fill("Quote the train times you give.");
    runId = await startAndFinish(page, "Conversation judges", 120_000);
  }, 240_000);

  afterAll(async () => {
    await app?.close();
    fs.rmSync(files, { recursive: true, force: true });
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

  const card = () => page.locator("[data-testid=conversation]");
  const turns = () => card().locator("[data-testid=conversation-turn]");
  const turn = (number: number) => card().locator(`[data-testid=conversation-turn][data-turn="${number}"]`);
  const verdict = (metric: string) => card().locator(`[data-testid=conversation-verdict][data-metric="${metric}"]`);
  const attributeOfTurns = (name: string) =>
    turns().evaluateAll((items, attribute) => items.map((item) => item.getAttribute(attribute)), name);

  describe(`a reviewer reads a conversation and its judges (${store})`, () => {
    it("the anchor: every judge's verdict, the session's turns in order, the answers that failed blamed beside them", async () => {
      await openRunRow("trip-1");
      expect(await card().locator("[data-testid=conversation-summary]").innerText()).toContain(
        "Session trip · 6 turns",
      );
      // On the anchor there is nothing to point to: the judges ran here.
      expect(await card().locator("[data-testid=conversation-anchor-note]").count()).toBe(0);

      const verdicts = card().locator("[data-testid=conversation-verdict]");
      expect(await verdicts.evaluateAll((items) => items.map((item) => item.getAttribute("data-metric")))).toEqual(
        CONVERSATION_METRICS.map((metric) => metric.name),
      );
      expect(await verdicts.evaluateAll((items) => items.map((item) => item.getAttribute("data-status")))).toEqual(
        Array(JUDGES).fill("done"),
      );
      expect(await verdict(MLFLOW_RETENTION).getAttribute("data-passed")).toBe("false");
      expect(await verdict(MLFLOW_RETENTION).innerText()).toMatch(/^no\s+Knowledge retention \(MLflow\)\s+turn 6$/);
      // DeepEval's score: two of the three answers kept what was given; it passes its 0.5 mark, yet names the lapse.
      expect(await verdict(DEEPEVAL_RETENTION).innerText()).toMatch(
        /^0\.67\s+Knowledge retention \(DeepEval\)\s+turn 6$/,
      );
      expect(await verdict("conversation/llm_judged/conversational_safety").innerText()).toMatch(/^yes\s/);
      expect(await verdict(GUIDELINES).innerText()).toMatch(/^no\s+Conversational guidelines \(MLflow\)\s+turn 4$/);

      expect(await attributeOfTurns("data-role")).toEqual([
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
        "assistant",
      ]);
      expect(await turn(1).innerText()).toContain("I live in Lyon");
      expect(await turn(5).innerText()).toContain("Book me the 9:04 one");
      expect(await attributeOfTurns("data-this-row")).toEqual(["true", "true", "false", "false", "false", "false"]);
      expect(await attributeOfTurns("data-blamed")).toEqual(["false", "false", "false", "true", "false", "true"]);
      expect(await turn(4).locator("[data-testid=turn-blame]").innerText()).toBe(
        "Conversational guidelines (MLflow): Assistant turns that break a guideline",
      );
      const blames = turn(6).locator("[data-testid=turn-blame]");
      expect(await blames.evaluateAll((items) => items.map((item) => item.getAttribute("data-metric")))).toEqual([
        MLFLOW_RETENTION,
        DEEPEVAL_RETENTION,
      ]);
      expect(await blames.nth(1).innerText()).toBe("Knowledge retention (DeepEval): asks again what is known");
      // The red left border of a blamed turn.
      expect(
        await turn(6)
          .locator("[data-testid=turn-box]")
          .evaluate((element) => getComputedStyle(element).borderLeftWidth),
      ).toBe("4px");

      // Uploaded markup stays text; Markdown is rendered.
      expect(await turn(2).locator("strong").innerText()).toBe("Lyon Part-Dieu");
      expect(await turn(2).locator("b").count()).toBe(0);
      expect(await turn(2).innerText()).toContain("<b>Book early</b>");

      // Each other row of the session is linked once, from its first turn, to its page in this run.
      const links = card().locator("[data-testid=turn-row-link]");
      expect(await links.count()).toBe(2);
      expect(await turn(3).locator("[data-testid=turn-row-link]").getAttribute("href")).toBe(
        `/runs/${runId}/rows/${await rowIdOf("trip-2")}`,
      );
      expect(await turn(3).locator("[data-testid=turn-row-link]").innerText()).toBe("row 1");
      // Full width, after the two columns: nothing of it scrolls sideways.
      expect(await card().evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0);
      await screenshot(page, `conversation-${store}`);
      await viewportScreenshot(card(), `conversation-card-${store}`);
    });

    it("a later turn: its own turns marked, the same verdicts, and the way to the anchor where they were judged", async () => {
      await openRunRow("trip-3");
      const note = card().locator("[data-testid=conversation-anchor-note]");
      expect(await note.innerText()).toBe("Judged with its conversation on its first turn: row 2.");
      expect(await attributeOfTurns("data-this-row")).toEqual(["false", "false", "false", "false", "true", "true"]);
      expect(await verdict(MLFLOW_RETENTION).getAttribute("data-passed")).toBe("false");
      expect(await turn(6).getAttribute("data-blamed")).toBe("true");
      // This row's own conversation judges were skipped: the Judges card says so.
      const ownRetention = page.locator(`[data-testid=judgment][data-metric="${MLFLOW_RETENTION}"]`);
      expect(await ownRetention.innerText()).toContain("Skipped");
      await screenshot(page, `conversation-turn-${store}`);

      const anchorPath = `/runs/${runId}/rows/${await rowIdOf("trip-1")}`;
      await note.getByRole("link").click();
      await page.waitForURL((url) => url.pathname === anchorPath);
      await card().waitFor();
      expect(await card().locator("[data-testid=conversation-anchor-note]").count()).toBe(0);
    });

    it("a request with earlier turns is its own conversation, its system turn counted; a lone row has none", async () => {
      await openRunRow("bucket");
      expect(await attributeOfTurns("data-role")).toEqual(["system", "user", "assistant", "user", "assistant"]);
      expect(await turn(5).innerText()).toContain("logs-eu is in eu-west-1.");
      // The long system turn opens on a preview, the rest one click away, without any script of its own.
      const long = turn(1).locator("[data-testid=long-turn]");
      expect(await long.innerText()).toContain("Show the whole turn");
      expect(await long.locator(".inert-markdown").isVisible()).toBe(false);
      await viewportScreenshot(card(), `conversation-request-card-${store}`);
      await long.locator("summary").click();
      await expect.poll(() => long.locator(".inert-markdown").isVisible()).toBe(true);
      expect(await long.locator(".inert-markdown").innerText()).toContain("Rule 24:");
      // One row: nothing to mark or link.
      expect(await card().locator("[data-testid=this-row], [data-testid=turn-row-link]").count()).toBe(0);
      expect(await card().locator("[data-testid=conversation-verdict][data-status=done]").count()).toBe(JUDGES);

      await openRunRow("solo");
      expect(await card().count()).toBe(0);
    });

    it("the dataset's row pages show the same conversation, linked to the dataset's rows, without verdicts", async () => {
      await page.goto(`${server.baseUrl}/datasets/${datasetId}/rows/${await rowIdOf("trip-2")}`);
      await card().waitFor();
      expect(await turns().count()).toBe(6);
      expect(await attributeOfTurns("data-this-row")).toEqual(["false", "false", "true", "true", "false", "false"]);
      expect(await card().locator("[data-testid=conversation-verdict]").count()).toBe(0);
      expect(await card().locator("[data-testid=conversation-anchor-note] a").getAttribute("href")).toBe(
        `/datasets/${datasetId}/rows/${await rowIdOf("trip-1")}`,
      );
      expect(await turn(5).locator("[data-testid=turn-row-link]").getAttribute("href")).toBe(
        `/datasets/${datasetId}/rows/${await rowIdOf("trip-3")}`,
      );
      await expectNoCrashText(page);
      expect(app.problems).toEqual([]);
    });
  });
}
