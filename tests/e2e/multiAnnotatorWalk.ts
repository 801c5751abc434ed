// Several people's labels, on either store, in Chromium on the built app (sign-in off: a label file's
// labelled_by names the labeller): one label file through the API brings in published reference data as
// different people's labels (Krippendorff 2011, Wikipedia's α example, Fleiss 1971); the dataset's and a
// run's agreement APIs give their published values; the run page shows the people's α beside the judge.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import type { Dialect } from "@/lib/db/store/dialect";
import { createRun } from "@/lib/engine/createRun";
import { FLEISS_1971_COUNTS, KRIPPENDORFF_2011_CODERS, WIKIPEDIA_ALPHA_CODERS } from "../support/agreementReferences";
import { importRows } from "../support/engineKit";
import type { AppServer } from "./appServer";
import {
  expectNoCrashText,
  openApp,
  screenshot,
  viewportScreenshot,
  waitForHydration,
  type OpenedApp,
} from "./helpers";

const ROWS = 45;

/** Coders as rows, "." missing, units as columns: one label record per value, scores mapped onto [0, 1]. */
function recordsOf(metric: string, coders: Readonly<Record<string, string>>, top: number) {
  return Object.entries(coders).flatMap(([labeller, line]) =>
    line
      .split(" ")
      .flatMap((value, unit) =>
        value === "."
          ? []
          : [{ request_id: `q-${unit + 1}`, metric, label: (Number(value) - 1) / (top - 1), labelled_by: labeller }],
      ),
  );
}

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability": 4 observers × 12 units with gaps.
const KRIPPENDORFF_2011 = recordsOf("faithfulness", KRIPPENDORFF_2011_CODERS, 5);
// Wikipedia's "Krippendorff's alpha" example: 3 coders × 15 units.
const WIKIPEDIA = recordsOf("answer_relevancy", WIKIPEDIA_ALPHA_CODERS, 4);
// Fleiss (1971): 10 items, 14 raters, 5 categories (counts per category); who gave which is arbitrary.
const FLEISS_1971 = FLEISS_1971_COUNTS.flatMap((counts, item) =>
  counts
    .flatMap((n, category) => Array<number>(n).fill(category))
    .map((category, rater) => ({
      request_id: `q-${item + 1}`,
      metric: "toxicity",
      label: category / 4,
      labelled_by: `rater-${rater + 1}`,
    })),
);
// Three people label safety on every row, mostly agreeing; a fourth, on four rows where one of the three
// already differed, sides with that one: four ties, which have no gold label.
const DEE_ROWS = [5, 7, 10, 11];
const SAFETY = Array.from({ length: ROWS }, (_, i) => i + 1).flatMap((n) => {
  const truth = n % 3 === 0 ? "no" : "yes";
  const flip = (rating: string) => (rating === "yes" ? "no" : "yes");
  const records = [
    { labelled_by: "ann", label: n % 7 === 0 ? flip(truth) : truth },
    { labelled_by: "bob", label: n % 5 === 0 ? flip(truth) : truth },
    { labelled_by: "cy", label: n % 11 === 0 ? flip(truth) : truth },
  ];
  if (DEE_ROWS.includes(n)) records.push({ labelled_by: "dee", label: flip(truth) });
  return records.map((record) => ({ request_id: `q-${n}`, metric: "safety", ...record }));
});

type Alpha = { defined: boolean; alpha?: number };
type Report = {
  metric: string;
  labellers: { id: string }[];
  agreement: {
    alpha: Alpha;
    byLevel: Record<string, Alpha>;
    fleiss: { defined: boolean; kappa?: number };
    pairableRows: number;
    unitsInterval: { low: number; high: number } | null;
    krippendorffInterval: { low: number; high: number } | null;
  };
  gold: { tied: number; majority: number };
  judge: { altTest: { tested: number; passed: boolean | null } } | null;
};

export function describeMultiAnnotator(store: Dialect): void {
  let app: OpenedApp;
  let server: AppServer;
  let db: Db;
  let page: Page;
  let datasetId = "";
  let runId = "";

  beforeAll(async () => {
    app = await openApp({ store });
    ({ server, db, page } = app);
    datasetId = await importRows(
      db,
      Array.from({ length: ROWS }, (_, i) => ({
        request_id: `q-${i + 1}`,
        request: `Is it safe to share account ${i + 1}'s password with support?`,
        response: `Never share it; support will not ask for account ${i + 1}'s password.`,
      })),
    );
  }, 240_000);

  afterAll(async () => {
    await app?.close();
  });

  async function api<T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
    const response = await fetch(`${server.baseUrl}${path}`, {
      ...init,
      headers: { origin: server.baseUrl, ...init.headers },
    });
    return { status: response.status, body: (await response.json()) as T };
  }

  const byMetric = (reports: Report[], metric: string) => {
    const report = reports.find((r) => r.metric.endsWith(`/${metric}`));
    if (!report) throw new Error(`no agreement for ${metric}: ${reports.map((r) => r.metric).join(", ")}`);
    return report;
  };
  const alphaOf = (alpha: Alpha | undefined) => (alpha?.defined ? alpha.alpha : NaN);

  describe(`several people's labels (${store})`, () => {
    it("imports one file of several people's labels and gives the published α and κ through the API", async () => {
      const file = [...KRIPPENDORFF_2011, ...WIKIPEDIA, ...FLEISS_1971, ...SAFETY]
        .map((record) => JSON.stringify(record))
        .join("\n");
      const imported = await api<{ ok: boolean; records: number }>(`/api/v1/datasets/${datasetId}/labels`, {
        method: "POST",
        headers: { "content-type": "application/x-ndjson" },
        body: `${file}\n`,
      });
      expect(imported).toMatchObject({ status: 200, body: { ok: true } });
      const { status, body } = await api<{ people: Report[] }>(`/api/v1/datasets/${datasetId}/agreement`);
      expect(status).toBe(200);
      const krippendorff = byMetric(body.people, "faithfulness");
      expect(krippendorff.labellers.map((l) => l.id)).toEqual(["B", "D", "C", "A"]);
      expect(alphaOf(krippendorff.agreement.byLevel.nominal)).toBeCloseTo(0.743421, 6);
      expect(alphaOf(krippendorff.agreement.byLevel.ordinal)).toBeCloseTo(0.815388, 6);
      expect(alphaOf(krippendorff.agreement.byLevel.interval)).toBeCloseTo(0.849107, 6);
      expect(alphaOf(krippendorff.agreement.alpha)).toBeCloseTo(0.849107, 6);
      expect(krippendorff.agreement.pairableRows).toBe(11);
      const wikipedia = byMetric(body.people, "answer_relevancy");
      expect(alphaOf(wikipedia.agreement.byLevel.nominal)).toBeCloseTo(0.691358, 6);
      expect(alphaOf(wikipedia.agreement.byLevel.interval)).toBeCloseTo(0.810845, 6);
      const fleiss = byMetric(body.people, "toxicity");
      expect(fleiss.labellers).toHaveLength(14);
      expect(fleiss.agreement.fleiss.defined).toBe(true);
      expect(fleiss.agreement.fleiss.kappa).toBeCloseTo(0.2099307, 6);
      // Krippendorff's own bootstrap brackets α; rows resampled too.
      const interval = krippendorff.agreement.krippendorffInterval;
      expect(interval && interval.low < 0.849107 && interval.high > 0.849107).toBe(true);
      const safety = byMetric(body.people, "safety");
      expect(safety.gold.tied).toBe(DEE_ROWS.length);
      expect(safety.gold.majority).toBe(ROWS - DEE_ROWS.length);
      expect(safety.judge).toBeNull();
    });

    it("measures a run's judge against the gold labels and holds it to the people's agreement", async () => {
      runId = await createRun(db, {
        datasetId,
        metrics: ["response/llm_judged/safety"],
        judge: { provider: "heuristic", model: "offline" },
        name: "support-bot",
      });
      for (;;) {
        if ((await db.run.count({ where: { id: runId, status: "completed" } })) === 1) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const { status, body } = await api<{ judges: { metric: string; labelled: number }[]; people: Report[] }>(
        `/api/v1/runs/${runId}/agreement?epsilon=0.2`,
      );
      expect(status).toBe(200);
      const safety = byMetric(body.people, "safety");
      const judge = body.judges.find((j) => j.metric.endsWith("/safety"));
      // The judge is measured on the gold labels: every row but the ties.
      expect(judge?.labelled).toBe(ROWS - safety.gold.tied);
      expect(safety.judge?.altTest.tested).toBe(3);
      expect(body.people.map((r) => r.metric).every((m) => m.endsWith("/safety"))).toBe(true);
    });

    it("shows the people's α beside the judge on the run page", async () => {
      await page.goto(`${server.baseUrl}/runs/${runId}`);
      await waitForHydration(page, "[data-testid=agreement-panel]");
      const section = page.locator("[data-testid=people-agreement]");
      await section.scrollIntoViewIfNeeded();
      await expect.poll(() => section.innerText()).toContain("Agreement between people");
      const safety = section.locator('[data-metric$="/safety"]');
      expect(await safety.locator("[data-testid=people-alpha]").innerText()).toMatch(
        /People's α \(nominal\)\s*0\.\d{3}/,
      );
      expect(await safety.locator("[data-testid=alt-test]").innerText()).toContain("alternative annotator test");
      await safety.locator("summary").click();
      expect(await safety.locator("[data-testid=labeller-pairs]").innerText()).toContain("judge");
      await expectNoCrashText(page);
      await viewportScreenshot(section, `people-agreement-panel-${store}`);
      await screenshot(page, `people-agreement-${store}`);
    });
  });
}
