import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEEPEVAL_CASES, DEEPEVAL_NOTICE } from "../ingest/support/foreignDatasets";
import { spawnEval } from "../support/spawnEval";

describe("npm run eval --dataset with a DeepEval file", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-cli-deepeval-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("reads it as DeepEval test cases, says so on stdout, judges it and exits 0", async () => {
    const dataset = path.join(dir, "deepeval.json");
    fs.writeFileSync(dataset, JSON.stringify(DEEPEVAL_CASES, null, 2));
    const { code, stdout, stderr } = await spawnEval(
      ["--dataset", dataset, "--judges", "faithfulness,bleu", "--judge-model", "heuristic", "--quiet"],
      { DATABASE_URL: `file:${path.join(dir, "cli.db")}` },
    ).done;
    expect(stderr).not.toContain("Error");
    expect(code).toBe(0);
    expect(stdout).toContain(DEEPEVAL_NOTICE);
    // Both metrics ran on both rows: faithfulness needs the retrieval context the mapping brought in.
    expect(stdout).toMatch(/response\/llm_judged\/faithfulness\/score\/average\s+\S+\s+2 rows/);
    expect(stdout).toMatch(/response\/statistical\/bleu\/score\/average\s+\S+\s+2 rows/);
  });
});

describe("npm run eval --dataset with a file in no format Assay reads", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-cli-nofmt-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("says once that no column gives the request, names the columns, and prints the ignored-columns warning", async () => {
    const dataset = path.join(dir, "mystery.jsonl");
    const rows = Array.from({ length: 50 }, (_, i) => JSON.stringify({ query_text: `q${i}`, answer_text: `a${i}` }));
    fs.writeFileSync(dataset, rows.join("\n"));
    const { code, stderr } = await spawnEval(
      ["--dataset", dataset, "--judges", "safety", "--judge-model", "heuristic", "--quiet"],
      { DATABASE_URL: `file:${path.join(dir, "cli.db")}` },
    ).done;
    expect(code).toBe(2);
    expect(stderr).toContain("No column gives the request. Found columns: query_text, answer_text.");
    // Not one "request is required" per row.
    expect(stderr).not.toContain("request is required");
    // The warning that says why is printed with the failure, not only on success.
    expect(stderr).toMatch(/Warning: Unknown columns "query_text", "answer_text" were ignored/);
  });
});
