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
