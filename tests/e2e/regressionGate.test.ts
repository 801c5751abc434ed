// The regression gate as a CI job uses it: each build uploads its own file of the same requests with its own
// responses, runs it on the team's server and compares it with the latest run of the main branch. The offline
// judge's relevance_to_query says no to an answer about something else, so a build can be made really worse.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "@/lib/db/client";

import { toJsonl, type EvalObject } from "../support/evalFiles";
import { spawnEval } from "../support/spawnEval";
import { startAppServer, type AppServer } from "./appServer";
import { tempDir, writeFile } from "./helpers";

const ROWS = 40;
const OFF_TOPIC =
  "Bananas ripen faster in a paper bag. Keep them out of the fridge and they turn sweet within two or three days.";
/** Row i: a question about its own part, answered on topic unless `offTopic` has it. */
function build(offTopic: Set<number>, changes: { extra?: boolean; reworded?: number } = {}): EvalObject[] {
  const rows: EvalObject[] = [];
  for (let i = 1; i <= ROWS; i += 1) {
    const request =
      changes.reworded === i
        ? `Which warehouse stores gasket ${i}?`
        : `What torque does the assembly manual give for flange bolt ${i}?`;
    const response = offTopic.has(i)
      ? OFF_TOPIC
      : `The assembly manual gives a torque of ${20 + i} newton metres for flange bolt ${i}.`;
    rows.push({ request_id: `q${i}`, request, response });
  }
  if (changes.extra) rows.push({ request_id: "q-new", request: "A request only this build has?", response: "Yes." });
  // Each build writes its rows in its own order: pairing is by request_id, not by position.
  return rows.reverse();
}

let server: AppServer;
let db: Db;
let dir: string;
const gateArgs = (file: string, ...more: string[]) => [
  "--server",
  server.baseUrl,
  "--dataset",
  file,
  "--judges",
  "relevance_to_query,safety",
  "--judge-model",
  "heuristic",
  "--quiet",
  ...more,
];

beforeAll(async () => {
  server = await startAppServer();
  db = createDb(server.databaseUrl);
  dir = tempDir("assay-gate-");
}, 240_000);

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

describe("npm run eval -- --server … --baseline", () => {
  it("fails only on a real regression, names the metric, and writes the Markdown summary", async () => {
    const env = { DATABASE_URL: `file:${path.join(dir, "unused.db")}` };
    // main's build: the first, so there is nothing to compare with yet, and the gate passes.
    const main = await spawnEval(
      gateArgs(
        writeFile(dir, "main.jsonl", toJsonl(build(new Set()))),
        "--name",
        "main",
        "--tag",
        "branch=main",
        "--baseline",
        "latest:branch=main",
      ),
      env,
    ).done;
    expect(main.code, main.stderr).toBe(0);
    expect(main.stdout).toContain("No completed run tagged branch=main yet");
    const mainRun = await db.run.findFirstOrThrow({ where: { name: "main" } });

    // A build whose answers to 12 requests are off topic, with one request reworded and one new.
    const worse = build(new Set([2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37]), { extra: true, reworded: 40 });
    const summary = path.join(dir, "summary.md");
    const stepSummary = path.join(dir, "github-step-summary.md");
    fs.writeFileSync(stepSummary, "earlier step\n");
    const regressed = await spawnEval(
      gateArgs(
        writeFile(dir, "pr-1.jsonl", toJsonl(worse)),
        "--name",
        "pr-1",
        "--baseline",
        "latest:branch=main",
        "--summary-md",
        summary,
      ),
      { ...env, GITHUB_STEP_SUMMARY: stepSummary },
    ).done;
    expect(regressed.code, regressed.stdout + regressed.stderr).toBe(1);
    // Two metrics compared, read together with Holm's correction (the default).
    expect(regressed.stdout).toContain(
      `Regression gate against "main" (${mainRun.id}), alpha 0.05, Holm's correction for 2 metrics:`,
    );
    expect(regressed.stdout).toMatch(
      /REGRESSION +response\/llm_judged\/relevance_to_query: 100\.0% → 68\.3%; Real regression after correcting for 2 metrics: −30\.8 points \(McNemar p < 0\.001, Holm-adjusted p < 0\.001\) \[39 paired rows\]/,
    );
    expect(regressed.stdout).toMatch(
      /noise +response\/llm_judged\/safety: 100\.0% → 100\.0%; No net change: 0\.0 points/,
    );
    expect(regressed.stdout).toContain("Real regression on response/llm_judged/relevance_to_query.");
    // 39 requests on both sides, q40 reworded (not paired), q-new only in this build.
    expect(regressed.stdout).toContain(
      "Rows: 39 rows paired by request_id and request; 1 row only in this run, 1 row with the same request_id but another request (not paired). Deltas, tests and flipped rows are on the paired rows.",
    );
    expect(regressed.stdout).toContain("[39 paired rows]");
    const markdown = fs.readFileSync(summary, "utf8");
    expect(markdown).toContain(
      "**Real regression on 1 metric** (α = 0.05, Holm's correction for 2 metrics): `response/llm_judged/relevance_to_query`.",
    );
    expect(markdown).toMatch(
      /\| `response\/llm_judged\/relevance_to_query` \| 100\.0% \| 68\.3% \| −30\.8 pts \| −\d+\.\d pts to −\d+\.\d pts \| < 0\.001 \| < 0\.001 \| 39 \| \*\*Real regression/,
    );
    // The first ten listed, out of every flip: 30.8 points of 39 paired rows is 12 rows.
    expect(markdown).toContain("### Flipped rows (first 10 of 12: 12 regressions, 0 improvements)");
    const link = /\[side by side\]\((http:\/\/127\.0\.0\.1:\d+\/compare\/row\?[^)]+)\)/.exec(markdown);
    expect(link).not.toBeNull();
    // The link opens both runs' verdicts on the row, on the server.
    const sideBySide = await fetch(link![1]);
    expect(sideBySide.status).toBe(200);
    // Its text as shown: the response is split into marked differences, so read it without its tags.
    expect((await sideBySide.text()).replace(/<[^>]+>/g, "")).toContain(OFF_TOPIC);
    expect(fs.readFileSync(stepSummary, "utf8")).toBe(`earlier step\n${markdown}\n`);
    // The compare page says how the two uploads' rows paired.
    const prRun = await db.run.findFirstOrThrow({ where: { name: "pr-1" } });
    const comparePage = await fetch(`${server.baseUrl}/compare?runs=${mainRun.id},${prRun.id}&baseline=${mainRun.id}`);
    expect(await comparePage.text()).toContain(
      "39 rows paired by request_id and request; 1 row only in this run, 1 row with the same request_id but another request (not paired).",
    );

    // A build that differs from main by one worse answer: likely noise, and the gate passes.
    const mainNoisy = build(new Set([4]));
    const noisy = await spawnEval(
      gateArgs(
        writeFile(dir, "main-noisy.jsonl", toJsonl(mainNoisy)),
        "--name",
        "noisy",
        "--baseline",
        mainRun.id,
        "--alpha",
        "0.1",
      ),
      env,
    ).done;
    expect(noisy.code, noisy.stderr).toBe(0);
    expect(noisy.stdout).toContain(
      `Regression gate against "main" (${mainRun.id}), alpha 0.1, Holm's correction for 2 metrics:`,
    );
    expect(noisy.stdout).toMatch(
      /noise +response\/llm_judged\/relevance_to_query: 100\.0% → 97\.5%; Likely noise after correcting for 2 metrics: −2\.5 points \(p = 1, Holm-adjusted p = 1\)/,
    );
    expect(noisy.stdout).toContain("No real regression: every change is an improvement or likely noise.");
  }, 240_000);

  it("with --pairwise, judges the build's answers against main's pair by pair and fails on B's real loss", async () => {
    const env = { DATABASE_URL: `file:${path.join(dir, "unused.db")}` };
    const mainRun = await db.run.findFirstOrThrow({ where: { name: "main" } });
    const summary = path.join(dir, "pairwise-summary.md");
    // The same 12 off-topic answers: the server has no model, so its judge is the offline approximation, which
    // prefers the on-topic answer (relevance) and calls the 27 unchanged pairs ties.
    const worse = build(new Set([2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37]), { reworded: 40 });
    const gated = await spawnEval(
      gateArgs(
        writeFile(dir, "pr-2.jsonl", toJsonl(worse)),
        "--name",
        "pr-2",
        "--baseline",
        mainRun.id,
        "--pairwise",
        "--summary-md",
        summary,
      ),
      env,
    ).done;
    expect(gated.code, gated.stdout + gated.stderr).toBe(1);
    expect(gated.stdout).toMatch(
      /Pairwise judgment \S+ against the baseline: 78 judgments \(both orders\), judge offline approximation\./,
    );
    expect(gated.stdout).toContain(
      `Regression gate against "main" (${mainRun.id}), alpha 0.05, Holm's correction for 3 metrics:`,
    );
    expect(gated.stdout).toMatch(
      /REGRESSION +pairwise\/overall: Real regression after correcting for 3 metrics: B wins 34\.6% of 39 pairs, ties as half \(95% CI [\d.]+ to [\d.]+; 0 wins, 12 losses, 27 ties; sign test p < 0\.001/,
    );
    expect(gated.stdout).toMatch(
      /pairwise\/overall judge: position consistency 100\.0%, first-shown answer wins 50\.0%/,
    );
    expect(gated.stdout).toContain("Real regression on response/llm_judged/relevance_to_query, pairwise/overall.");
    const markdown = fs.readFileSync(summary, "utf8");
    expect(markdown).toContain("### Pairwise judgment (both orders, judge offline approximation)");
    expect(markdown).toMatch(/\| `pairwise\/overall` \| 0 \| 12 \| 27 \| \*\*Real regression/);
  }, 240_000);

  it("refuses a gate without a server, and a baseline that does not exist", async () => {
    const file = writeFile(dir, "small.jsonl", toJsonl(build(new Set()).slice(0, 3)));
    const local = await spawnEval(
      ["--dataset", file, "--judge-model", "heuristic", "--baseline", "latest:branch=main"],
      {
        DATABASE_URL: `file:${path.join(dir, "local.db")}`,
      },
    ).done;
    expect(local.code).toBe(2);
    expect(local.stderr).toContain("--baseline compares runs on a team's server: give --server too");
    const missing = await spawnEval(gateArgs(file, "--baseline", "no-such-run"), {
      DATABASE_URL: `file:${path.join(dir, "unused.db")}`,
    }).done;
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("baseline run no-such-run does not exist on the server");
  }, 120_000);
});
