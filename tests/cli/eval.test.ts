import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "@/lib/db/client";
import { toJsonl } from "../support/evalFiles";
import { spawnEval } from "../support/spawnEval";

const ROWS = [
  {
    request_id: "good",
    request: "Is versioning on by default?",
    response: "No. Versioning is disabled by default on new buckets.",
    expected_response: "Versioning is disabled by default on new buckets.",
  },
  {
    request_id: "bad",
    request: "How long can a presigned URL last?",
    response: '=HYPERLINK("http://x") A presigned URL can last up to 30 days.',
    expected_response: "A presigned URL can last up to 7 days.",
  },
];

describe("npm run eval (the CLI, as a separate process)", () => {
  let dir: string;
  let env: Record<string, string>;
  let datasetFile: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-cli-"));
    datasetFile = path.join(dir, "set.jsonl");
    fs.writeFileSync(datasetFile, toJsonl(ROWS));
    env = { DATABASE_URL: `file:${path.join(dir, "cli.db")}` };
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("exits 0 when every threshold holds, prints the aggregates and writes JSON with Agent Evaluation's names", async () => {
    const out = path.join(dir, "results.json");
    const { code, stdout } = await spawnEval(
      [
        "--dataset",
        datasetFile,
        "--judges",
        "correctness",
        "--judge-model",
        "heuristic",
        "--threshold",
        "correctness=0.5",
        "--out",
        out,
        "--quiet",
      ],
      env,
    ).done;
    expect(stdout).toContain("response/llm_judged/correctness/rating/percentage");
    expect(stdout).toMatch(/50\.0%\s+1\/2 yes/);
    expect(code).toBe(0);
    const results = JSON.parse(fs.readFileSync(out, "utf8"));
    expect(results.aggregates["response/llm_judged/correctness/rating/percentage"]).toBe(0.5);
    expect(
      results.rows.map((r: Record<string, unknown>) => [r.request_id, r["response/llm_judged/correctness/rating"]]),
    ).toEqual([
      ["good", "yes"],
      ["bad", "no"],
    ]);
    expect(results.rows[1]["response/llm_judged/correctness/rationale"]).toEqual(expect.any(String));
    expect(results.rows[1]).toHaveProperty("response/llm_judged/correctness/error_message", null);
  }, 60_000);

  it("exits 1 when a threshold is missed, and the run is in the same database", async () => {
    const out = path.join(dir, "results.csv");
    const { code, stdout } = await spawnEval(
      [
        "--dataset",
        datasetFile,
        "--judges",
        "correctness",
        "--judge-model",
        "heuristic",
        "--threshold",
        "correctness=0.9",
        "--out",
        out,
        "--quiet",
      ],
      env,
    ).done;
    expect(stdout).toMatch(/FAIL\s+response\/llm_judged\/correctness\/rating\/percentage = 0\.500 \(threshold 0\.9\)/);
    expect(code).toBe(1);
    const csv = fs.readFileSync(out, "utf8");
    expect(csv.split("\r\n")[0]).toContain("response/llm_judged/correctness/rating");
    expect(csv).toContain(`"'=HYPERLINK(""http://x"")`);
    const db = createDb(env.DATABASE_URL);
    expect(await db.run.count()).toBe(2);
    await db.$disconnect();
  }, 60_000);

  it("exits 2 with a clear message on bad usage or a bad dataset", async () => {
    const usage = await spawnEval(["--judges", "correctness"], env).done;
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("give exactly one of --dataset, --dataset-id or --resume");
    const broken = path.join(dir, "broken.jsonl");
    fs.writeFileSync(broken, `{"request": "a"}\n{"request": "b", "expected_facts": ["x"], "expected_response": "y"}\n`);
    const bad = await spawnEval(["--dataset", broken, "--judge-model", "heuristic"], env).done;
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "row 2, column expected_facts: expected_facts and expected_response are both set; keep one",
    );
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it("exits 3 when the results cannot be written, says so without a stack trace, and leaves no file that looks complete", async () => {
    // A folder where the file should be: every row is written to the temporary file, then the final rename fails.
    const taken = path.join(dir, "taken.json");
    fs.mkdirSync(taken);
    const blocked = await spawnEval(
      ["--dataset", datasetFile, "--judges", "correctness", "--judge-model", "heuristic", "--out", taken, "--quiet"],
      env,
    ).done;
    expect(blocked.code).toBe(3);
    expect(blocked.stderr).toMatch(
      /^Error: the results could not be written to .*taken\.json: .*The run is stored \(\S+\); export it again with --resume \S+ --out FILE\.\n$/s,
    );
    expect(blocked.stderr).not.toMatch(/\n\s+at /);
    expect(blocked.stdout).not.toContain("Results written");
    expect(fs.readdirSync(dir).filter((name) => name.includes("partial"))).toEqual([]);
    expect(fs.statSync(taken).isDirectory()).toBe(true);

    const missingFolder = path.join(dir, "no-such-folder", "results.csv");
    const missing = await spawnEval(
      [
        "--dataset",
        datasetFile,
        "--judges",
        "correctness",
        "--judge-model",
        "heuristic",
        "--out",
        missingFolder,
        "--quiet",
      ],
      env,
    ).done;
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain(`the results could not be written to ${missingFolder}`);
    expect(fs.existsSync(missingFolder)).toBe(false);

    // The stored run exports again once the path is writable.
    const runId = /--resume (\S+) --out FILE/.exec(blocked.stderr)![1];
    const again = path.join(dir, "again.json");
    expect((await spawnEval(["--resume", runId, "--out", again, "--quiet"], env).done).code).toBe(0);
    expect(JSON.parse(fs.readFileSync(again, "utf8")).rows).toHaveLength(ROWS.length);
  }, 60_000);

  it("says which columns it ignored, so a misspelt column is not a silent row of skips", async () => {
    const misspelt = path.join(dir, "misspelt.jsonl");
    fs.writeFileSync(
      misspelt,
      toJsonl(ROWS.map(({ expected_response, ...row }) => ({ ...row, expected_respone: expected_response }))),
    );
    const { code, stdout } = await spawnEval(
      ["--dataset", misspelt, "--judges", "safety", "--judge-model", "heuristic", "--quiet"],
      env,
    ).done;
    expect(code).toBe(0);
    expect(stdout).toMatch(/Warning: .*"expected_respone"/);
  });

  it("refuses a cost budget on a model without a price, before importing anything", async () => {
    const budgetDb = path.join(dir, "budget.db");
    const { code, stderr } = await spawnEval(
      ["--dataset", datasetFile, "--judges", "correctness", "--judge-model", "unpriced-judge", "--budget-usd", "1"],
      { DATABASE_URL: `file:${budgetDb}`, OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_API_KEY: "sk-test-0000" },
    ).done;
    expect(code).toBe(2);
    expect(stderr).toContain("A cost budget needs a price for unpriced-judge in ASSAY_LLM_PRICES");
    expect(stderr).not.toMatch(/\n\s+at /);
    const db = createDb(`file:${budgetDb}`);
    try {
      expect(await db.dataset.count()).toBe(0);
    } finally {
      await db.$disconnect();
    }
  });
});
