// axe-core (WCAG 2.0/2.1 A and AA rules) in Chromium on every page the browser
// tests visit. openApp() hooks it into each page of the browser context: after
// every page.goto, page.waitForURL (how the tests wait out a click's
// navigation), page.goBack and screenshot(), the page is audited, and a serious
// or critical violation (or a skipped heading level) fails the test there, naming the rule, the elements and
// the page. ASSAY_AXE_REPORT_ONLY=1 records the findings without failing (to
// measure how many there are); every finding is also written, one JSON line
// each, to test-results/axe/<pid>.jsonl.
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Page } from "playwright-core";
import { inject } from "vitest";
import { z } from "zod";
import { ROOT } from "./appServer";
import { markContrastRegions, REGION_LIMIT } from "./contrastRegions";

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const BLOCKING_IMPACTS = new Set(["serious", "critical"]);
/**
 * Rules outside the WCAG tags (axe files them as best practice, impact moderate) that fail the test too:
 * a skipped heading level breaks navigation by headings, which is how many screen-reader users read a page.
 */
const ALSO_BLOCKING_RULES = new Set(["heading-order"]);
const FINDINGS_DIR = path.join(ROOT, "test-results", "axe");

const axeViolationSchema = z.object({
  rule: z.string(),
  impact: z.string(),
  help: z.string(),
  targets: z.array(z.string()),
});
export type AxeViolation = z.infer<typeof axeViolationSchema>;

/** The page's route with its ids replaced, so findings group by page kind: /runs/[id]/rows/[id]. */
export function routeOf(url: string): string {
  const { pathname } = new URL(url);
  return pathname.replace(/\/(datasets|runs|rows)\/(?!new(\/|$))[^/]+/g, "/$1/[id]");
}

/**
 * What axe's findings depend on, without what they do not: each element with its attributes (values kept for
 * classes, roles, types and ARIA states, and for styles but their numbers; only presence for ids, links and
 * geometry, which differ by row and by data), whether each text node is empty or not (a name, a heading,
 * contrast), and an element's children as the set of their shapes (a table of 25 rows is a table of 50, in
 * any order; the order of the headings, which axe does check, is kept apart). A 32-bit FNV-1a hash of it, and
 * its length. Evaluated in the page.
 */
function pageShape(): string {
  const VALUE_KEPT =
    /^(class|role|style|type|lang|dir|tabindex|disabled|hidden|open|scope|aria-(?!label$|labelledby$|describedby$|controls$|owns$|activedescendant$|valuenow$|valuetext$|rowindex$|rowcount$|setsize$|posinset$).*)$/;
  const shapeOf = (node: Node): string => {
    if (node.nodeType === Node.TEXT_NODE) return /\S/.test(node.textContent ?? "") ? "t" : "";
    if (node.nodeType !== Node.ELEMENT_NODE) return "";
    const element = node as Element;
    const attributes = [...element.attributes]
      .map((attribute) =>
        attribute.name === "style" && attribute.value === ""
          ? ""
          : VALUE_KEPT.test(attribute.name)
            ? // A style's numbers are geometry (a bar's width); a class's are colours (text-slate-400 or -600).
              `${attribute.name}=${attribute.name === "style" ? attribute.value.replace(/\d+(\.\d+)?/g, "#") : attribute.value}`
            : attribute.value === ""
              ? `${attribute.name}=`
              : attribute.name,
      )
      .filter((attribute) => attribute !== "")
      .sort()
      .join(" ");
    const children = new Set<string>();
    for (const child of element.childNodes) children.add(shapeOf(child));
    children.delete("");
    return `<${element.tagName} ${attributes}>${[...children].sort().join("")}</>`;
  };
  // Sorting siblings loses the one order axe checks: the headings' levels, kept apart, in the page's order.
  const headings = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6, [role=heading]")]
    .map((heading) => heading.getAttribute("aria-level") ?? heading.tagName)
    .join(" ");
  const text = `${shapeOf(document.documentElement)} ${headings} ${document.title.replace(/\S+/g, "w")}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return `${hash.toString(16)}:${text.length}`;
}

/**
 * Findings by page shape, for the whole run: a page in a shape already audited (the same page after Next, a
 * refresh, the same state of another run, in this test file or another, in either worker process) gets that
 * audit's findings without running axe again. On the run page a pass takes seconds on this 2-core machine, and
 * the browser suite made about 430 of them, most of them repeats. One JSON file per shape in the run's folder
 * (tests/e2e/globalSetup.ts), written whole under a temporary name and renamed, so a reader never sees half.
 */
const findingsByShape = {
  dir: () => path.join(inject("assayE2eRunDir"), "axe-findings"),
  file: (shape: string) => path.join(findingsByShape.dir(), `${createHash("sha256").update(shape).digest("hex")}.json`),
  get(shape: string): AxeViolation[] | undefined {
    try {
      return z.array(axeViolationSchema).parse(JSON.parse(fs.readFileSync(findingsByShape.file(shape), "utf8")));
    } catch {
      return undefined;
    }
  },
  set(shape: string, violations: AxeViolation[]): void {
    fs.mkdirSync(findingsByShape.dir(), { recursive: true });
    const file = findingsByShape.file(shape);
    const staging = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(staging, JSON.stringify(violations));
    fs.renameSync(staging, file);
  },
};

/**
 * Runs axe on the page as it is now (or recalls the audit of a page of the same shape): its WCAG A/AA violations
 * of every impact, whether they were recalled, how many contrast regions were checked and recalled
 * (contrastRegions.ts), and the milliseconds the audit took.
 */
export async function axeViolations(page: Page): Promise<{
  violations: AxeViolation[];
  recalled: boolean;
  regions: { checked: number; recalled: number };
  ms: number;
}> {
  const started = performance.now();
  for (let attempt = 1; ; attempt++) {
    try {
      await page.waitForLoadState("load");
      // Next streams a dynamic page's <title> after its body: give it a moment, or axe reports a missing title.
      // Up to 10 s, as expect.poll waits in the browser suite: a page streamed on CI's busy machine took over
      // 1.6 s, and a title that never comes still fails the audit, only later.
      await page.waitForFunction(() => document.title !== "", undefined, { timeout: 10_000 }).catch(() => {});
      const route = routeOf(page.url());
      const shape = `${route} ${await page.evaluate(pageShape)}`;
      const known = findingsByShape.get(shape);
      if (known)
        return {
          violations: known,
          recalled: true,
          regions: { checked: 0, recalled: 0 },
          ms: performance.now() - started,
        };
      const regionShapes = (await page.evaluate(markContrastRegions, REGION_LIMIT)).map(
        (key) => `contrast ${route} ${key}`,
      );
      const recalledContrast = regionShapes.map((regionShape) => findingsByShape.get(regionShape));
      const fresh = regionShapes.flatMap((_, index) => (recalledContrast[index] ? [] : [index]));
      const options = { tags: WCAG_TAGS, rules: [...ALSO_BLOCKING_RULES], fresh };
      let audit = await page.evaluate(runAxe, options);
      if (audit === "axe not loaded") {
        // Loaded into the document only when it is audited for real, not recalled. As an init script in every
        // document instead (about 150 ms less to send per audit), its 550 kB were parsed at each navigation,
        // audited or not: the browser spent 9% more CPU on two browser test files where nothing was recalled.
        await page.evaluate((source) => void (0, eval)(source), AXE_SOURCE);
        audit = await page.evaluate(runAxe, options);
        if (audit === "axe not loaded") throw new Error("axe-core did not load in the page");
      }
      fresh.forEach((regionIndex, i) => findingsByShape.set(regionShapes[regionIndex], audit.contrastByRegion[i]));
      const violations = mergeByRule([
        ...audit.violations,
        ...recalledContrast.flatMap((found) => found ?? []),
        ...audit.contrastByRegion.flat(),
      ]);
      findingsByShape.set(shape, violations);
      return {
        violations,
        recalled: false,
        regions: { checked: fresh.length, recalled: regionShapes.length - fresh.length },
        ms: performance.now() - started,
      };
    } catch (error) {
      // The page navigated while axe ran (a redirect, a refresh): audit the page it landed on.
      if (attempt >= 3 || !/context was destroyed|navigation|Target closed/i.test(String(error))) throw error;
    }
  }
}

/**
 * Evaluated in the page: axe's WCAG rules and the extra ones switched on by name over the whole page, but for
 * colour contrast, which runs only in the regions `fresh` names (markContrastRegions left them on window); that
 * rule's findings come back per region.
 */
async function runAxe({ tags, rules, fresh }: { tags: string[]; rules: string[]; fresh: number[] }) {
  type AxeNode = { target: unknown[]; any: { data?: unknown }[]; element?: Element };
  type AxeViolationFound = { id: string; impact: string | null; help: string; nodes: AxeNode[] };
  type AxeRun = (context: unknown, options: object) => Promise<{ violations: AxeViolationFound[] }>;
  // What a colour-contrast finding measured: "(#94a3b8 on #ffffff, 2.56:1, needs 4.5:1)".
  const describeData = (data: unknown) => {
    const d = data as { fgColor?: string; bgColor?: string; contrastRatio?: number; expectedContrastRatio?: string };
    return d && d.fgColor
      ? ` (${d.fgColor} on ${d.bgColor}, ${d.contrastRatio}:1, needs ${d.expectedContrastRatio})`
      : "";
  };
  const finding = (violation: AxeViolationFound, nodes: AxeNode[]) => ({
    rule: violation.id,
    impact: violation.impact ?? "unknown",
    help: violation.help,
    targets: nodes.map((node) => node.target.map(String).join(" ") + describeData(node.any[0]?.data)),
  });
  const w = window as unknown as { axe?: { run: AxeRun }; __assayContrastRegions?: Element[] };
  if (!w.axe) return "axe not loaded" as const;
  const regions = fresh.map((index) => w.__assayContrastRegions?.[index]);
  // A region gone from the document (a refresh re-rendered it) would be audited as nothing: audit again.
  if (!regions.every((region): region is Element => region?.isConnected === true))
    throw new Error("navigation: the page changed between its regions and its audit");
  // One pass: the rules of the WCAG tags, and the extra ones switched on by name (axe checks a rule's own
  // `enabled` before the tags). A pass per rule set walked and styled the whole page twice.
  const whole = await w.axe.run(document, {
    runOnly: { type: "tag", values: tags },
    rules: {
      ...Object.fromEntries(rules.map((rule) => [rule, { enabled: true }])),
      "color-contrast": { enabled: false },
    },
    resultTypes: ["violations"],
  });
  const contrastByRegion = regions.map(() => [] as ReturnType<typeof finding>[]);
  if (regions.length > 0) {
    const contrast = await w.axe.run(
      { include: regions },
      { runOnly: { type: "rule", values: ["color-contrast"] }, resultTypes: ["violations"], elementRef: true },
    );
    for (const violation of contrast.violations)
      regions.forEach((region, i) => {
        const nodes = violation.nodes.filter((node) => node.element && region.contains(node.element));
        if (nodes.length > 0) contrastByRegion[i].push(finding(violation, nodes));
      });
  }
  return { violations: whole.violations.map((violation) => finding(violation, violation.nodes)), contrastByRegion };
}

/** One finding per rule: a rule found in several regions names all their elements. */
function mergeByRule(violations: AxeViolation[]): AxeViolation[] {
  const byRule = new Map<string, AxeViolation>();
  for (const violation of violations) {
    const seen = byRule.get(violation.rule);
    byRule.set(violation.rule, seen ? { ...seen, targets: [...seen.targets, ...violation.targets] } : violation);
  }
  return [...byRule.values()];
}

/** Audits the page and throws on any serious or critical violation, naming rule, elements and page. */
export async function expectAccessible(page: Page): Promise<void> {
  if (page.isClosed()) return;
  const url = page.url();
  if (!url.startsWith("http")) return;
  const { violations, recalled, regions, ms } = await axeViolations(page);
  record({ url, route: routeOf(url), recalled, regions, ms: Math.round(ms), violations });
  const blocking = violations.filter(
    (violation) => BLOCKING_IMPACTS.has(violation.impact) || ALSO_BLOCKING_RULES.has(violation.rule),
  );
  if (blocking.length === 0 || process.env.ASSAY_AXE_REPORT_ONLY === "1") return;
  const lines = blocking.map(
    (v) =>
      `  ${v.rule} (${v.impact}, ${v.targets.length} element${v.targets.length === 1 ? "" : "s"}): ${v.help}\n` +
      v.targets
        .slice(0, 8)
        .map((target) => `    ${target}`)
        .join("\n") +
      (v.targets.length > 8 ? `\n    …and ${v.targets.length - 8} more` : ""),
  );
  throw new Error(`axe: ${blocking.length} blocking accessibility violation(s) on ${url}\n${lines.join("\n")}`);
}

/** One line per audit: its page, whether axe ran or a page of the same shape was recalled, its time, its findings. */
function record(audit: {
  url: string;
  route: string;
  recalled: boolean;
  regions: { checked: number; recalled: number };
  ms: number;
  violations: AxeViolation[];
}): void {
  fs.mkdirSync(FINDINGS_DIR, { recursive: true });
  const line = JSON.stringify(audit) + "\n";
  fs.appendFileSync(path.join(FINDINGS_DIR, `${process.pid}.jsonl`), line);
}

const audited = new WeakSet<Page>();
/**
 * Makes every navigation of a page end with an audit: page.goto, page.waitForURL
 * (what the tests call after a click that navigates, including client-side
 * navigations) and page.goBack. Idempotent.
 */
export function auditEveryNavigation(page: Page): void {
  if (audited.has(page)) return;
  audited.add(page);
  const goto = page.goto.bind(page);
  page.goto = async (...args: Parameters<Page["goto"]>) => {
    const response = await goto(...args);
    await expectAccessible(page);
    return response;
  };
  const waitForURL = page.waitForURL.bind(page);
  page.waitForURL = async (...args: Parameters<Page["waitForURL"]>) => {
    await waitForURL(...args);
    await expectAccessible(page);
  };
  const goBack = page.goBack.bind(page);
  page.goBack = async (...args: Parameters<Page["goBack"]>) => {
    const response = await goBack(...args);
    await expectAccessible(page);
    return response;
  };
}
