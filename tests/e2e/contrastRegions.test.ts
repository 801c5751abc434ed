import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { launchChromium } from "../support/chromium";
import { axeViolations } from "./accessibility";

/**
 * A page of `rows` table rows on white; the rows `faint` names have grey text (#b0b0b0: 2.2:1 on white). The
 * word is also the table's class (which no style uses), so each page has a shape of its own: otherwise the
 * whole page's audit would be recalled and no region looked at.
 */
function tablePage(options: { rows: number; faint?: number[]; css?: string; word: string }): string {
  const rows = Array.from(
    { length: options.rows },
    (_, i) =>
      `<tr><td style="color:${options.faint?.includes(i) ? "#b0b0b0" : "#1e293b"}">${options.word} ${i + 1}</td><td>${i * 7}</td></tr>`,
  ).join("");
  return `<!doctype html><html lang="en"><head><title>Contrast ${options.word}</title><style>body{background:#fff;color:#1e293b}${options.css ?? ""}</style></head><body><main><h1>Rows</h1><table class="${options.word}"><thead><tr><th>Name</th><th>Value</th></tr></thead><tbody>${rows}</tbody></table></main></body></html>`;
}

function contrastTargets(violations: { rule: string; targets: string[] }[]): string[] {
  return violations.filter((v) => v.rule === "color-contrast").flatMap((v) => v.targets);
}

describe("colour contrast checked region by region", () => {
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.context.newPage();
  });
  afterAll(async () => browser?.close());

  it("finds a faint row, recalls the rows it has seen on another page, and still finds the faint one there", async () => {
    await page.setContent(tablePage({ rows: 60, faint: [6], word: "alpha" }));
    const first = await axeViolations(page);
    expect(first.recalled).toBe(false);
    expect(first.regions.checked).toBeGreaterThan(0);
    expect(contrastTargets(first.violations)).toHaveLength(1);
    expect(contrastTargets(first.violations)[0]).toContain("#b0b0b0");

    // Other words and more rows: a new page shape, but its rows look like the first page's.
    await page.setContent(tablePage({ rows: 80, faint: [40], word: "beta" }));
    const second = await axeViolations(page);
    expect(second.recalled).toBe(false);
    expect(second.regions.recalled).toBeGreaterThan(0);
    expect(contrastTargets(second.violations)).toHaveLength(1);
  });

  it("checks again a row whose classes are the same but whose computed colours differ (a striped table)", async () => {
    // Every row has the same markup as before; a stylesheet greys the text of the even rows.
    await page.setContent(
      tablePage({ rows: 60, word: "gamma", css: "tbody tr:nth-child(even) td{color:#b0b0b0 !important}" }),
    );
    const striped = await axeViolations(page);
    expect(striped.regions.checked).toBeGreaterThan(0);
    expect(contrastTargets(striped.violations).length).toBeGreaterThanOrEqual(30);

    await page.setContent(tablePage({ rows: 60, word: "delta" }));
    const plain = await axeViolations(page);
    expect(contrastTargets(plain.violations)).toHaveLength(0);
  });
});
