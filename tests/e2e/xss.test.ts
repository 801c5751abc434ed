// Browser test: uploaded content is shown as inert text. Every content field
// carries script, event-handler, javascript: link and svg payloads; none may
// run or become live markup, and each must still be readable as text.
import fs from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toJsonl } from "../support/evalFiles";
import type { AppServer } from "./appServer";
import {
  expectNoCrashText,
  screenshot,
  tempDir,
  uploadThroughPage,
  writeFile,
  openApp,
  type OpenedApp,
} from "./helpers";

const SCRIPT = "<script>window.__xss=1</script>";
const IMG = '<img src=x onerror="window.__xss=2">';
const LINK = "[click](javascript:window.__xss=3)";
const SVG = '<svg onload="window.__xss=4">';
/** As Markdown blocks (raw HTML blocks, an inline HTML tag, a link), and all on one line. */
const BLOCK = [SCRIPT, `Inline ${IMG} image`, LINK, SVG].join("\n\n");
const LINE = [SCRIPT, IMG, LINK, SVG].join(" ");
const DATASET_NAME = 'XSS <img src=x onerror="window.__xss=5"> set';

const ROWS = [
  {
    request_id: "xss-1",
    request: BLOCK,
    response: BLOCK,
    expected_response: BLOCK,
    retrieved_context: [{ content: BLOCK, doc_uri: LINE }],
    expected_retrieved_context: [{ doc_uri: LINE }],
  },
  {
    request_id: "xss-2",
    request: {
      messages: [
        { role: "system", content: BLOCK },
        { role: "user", content: BLOCK },
        { role: "assistant", content: LINE },
        { role: "user", content: LINE },
      ],
    },
    response: LINE,
    expected_facts: [SCRIPT, IMG, LINK, SVG],
    retrieved_context: [
      { content: LINE, doc_uri: "javascript:window.__xss=6" },
      { content: BLOCK, doc_uri: SVG },
    ],
  },
  {
    request_id: `xss-3 ${SCRIPT}`,
    request: {
      query: BLOCK,
      history: [
        { role: "user", content: LINE },
        { role: "assistant", content: BLOCK },
      ],
    },
    response: BLOCK,
    retrieved_context: [{ content: SCRIPT, doc_uri: IMG }],
  },
];

let server: AppServer;
let page: Page;
let problems: string[];
const files = tempDir();

let app: OpenedApp;

beforeAll(async () => {
  app = await openApp();
  ({ server, page, problems } = app);
});

afterAll(async () => {
  await app?.close();
  fs.rmSync(files, { recursive: true, force: true });
});

/** Nothing ran, nothing became live markup, and the payload is on screen as text. */
async function expectInert(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle");
  expect(
    await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss),
    `window.__xss on ${page.url()}`,
  ).toBeUndefined();
  const dom = await page.evaluate(() => ({
    payloadScripts: [...document.querySelectorAll("script")].filter((script) =>
      /^\s*window\.__xss/.test(script.textContent ?? ""),
    ).length,
    scriptsInMain: document.querySelectorAll("main script").length,
    handlers: [...document.querySelectorAll("*")].flatMap((el) =>
      [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `<${el.tagName.toLowerCase()} ${a.name}>`),
    ),
    javascriptLinks: [...document.querySelectorAll("[href], [src], [action], [formaction]")]
      .flatMap((el) => ["href", "src", "action", "formaction"].map((name) => el.getAttribute(name) ?? ""))
      .filter((value) => /^\s*javascript:/i.test(value)),
    imgs: document.querySelectorAll("main img, main svg[onload], main iframe, main object, main embed").length,
  }));
  expect(dom).toEqual({ payloadScripts: 0, scriptsInMain: 0, handlers: [], javascriptLinks: [], imgs: 0 });
  expect(await page.getByText(SCRIPT).first().isVisible(), `literal ${SCRIPT} visible on ${page.url()}`).toBe(true);
  await expectNoCrashText(page);
}

describe("uploaded HTML, script and javascript: links", () => {
  let datasetUrl = "";

  it("stay inert text on the dataset page and in the list", async () => {
    await uploadThroughPage(page, server.baseUrl, writeFile(files, "xss.jsonl", toJsonl(ROWS)), DATASET_NAME);
    datasetUrl = page.url();
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe(DATASET_NAME);
    // Next streams metadata to browsers: the <title> can arrive just after the page's body.
    await expect.poll(() => page.title()).toBe(`${DATASET_NAME} · Assay`);
    expect(await page.locator("[data-testid=row-count]").innerText()).toBe("3 rows");
    const table = await page.locator("[data-testid=rows-table]").innerText();
    for (const text of [SCRIPT, IMG, SVG, `xss-3 ${SCRIPT}`]) expect(table).toContain(text);
    await expectInert(page);

    await page.goto(`${server.baseUrl}/datasets`);
    expect(await page.locator("[data-testid=datasets-table]").innerText()).toContain(DATASET_NAME);
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  });

  for (const [index, row] of ROWS.entries()) {
    it(`stay inert text on the page of row ${index + 1}`, async () => {
      expect(datasetUrl, "needs the dataset uploaded by the first test").not.toBe("");
      await page.goto(datasetUrl);
      await page.getByRole("link", { name: row.request_id, exact: true }).click();
      await page.waitForURL(/\/rows\//);
      await page.locator("[data-testid=chat-transcript]").waitFor();
      await expectInert(page);

      const transcript = await page.locator("[data-testid=chat-transcript]").innerText();
      for (const text of [SCRIPT, IMG, SVG]) expect(transcript).toContain(text);
      const response = await page.locator("[data-testid=response]").innerText();
      expect(response).toContain(SCRIPT);
      expect(response).toContain(SVG);

      const chunks = page.locator("[data-testid=retrieved-context] [data-testid=chunk]");
      expect(await chunks.count()).toBe(row.retrieved_context.length);
      for (const [i, chunk] of row.retrieved_context.entries()) {
        const text = await chunks.nth(i).innerText();
        expect(text).toContain(chunk.doc_uri);
        expect(text).toContain(SCRIPT);
      }

      const main = await page.locator("main").innerText();
      if (row.expected_response) expect(main).toMatch(/expected_response\s+<script>window\.__xss=1<\/script>/i);
      for (const fact of row.expected_facts ?? []) expect(main).toContain(fact);
      if (row.expected_retrieved_context) expect(main).toMatch(/expected_retrieved_context\s+<script>/i);
      if (index === 0) {
        // Client navigation from a scrolled table can keep a small scroll offset that puts the title under the sticky header; shoot from the top.
        await page.evaluate(() => window.scrollTo(0, 0));
        await screenshot(page, "07-xss-row-page");
      }
    });
  }

  it("raised no page error, server error or dialog along the way", () => {
    expect(problems).toEqual([]);
    expect(server.output()).not.toMatch(/\berror\b/i);
  });
});
