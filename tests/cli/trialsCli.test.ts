// `npm run eval -- --trials 3` against the fake OpenAI server, as a process: three times the calls of one trial,
// the estimate saying so before the run, and an export with three verdicts per row and metric.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { toJsonl } from "../support/evalFiles";
import { fakeSeededResponder } from "../support/fakeRandomResponder";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { spawnEval } from "../support/spawnEval";

const ROWS = 8;
const METRICS = ["response/llm_judged/correctness", "response/llm_judged/safety"];
const rowsSchema = z.object({ rows: z.array(z.record(z.string(), z.unknown())) });

let server: FakeOpenAIServer;
let dir: string;
let dataset: string;

beforeAll(async () => {
  server = await startFakeOpenAIServer({ responder: fakeSeededResponder(11) });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-trials-cli-"));
  dataset = path.join(dir, "set.jsonl");
  fs.writeFileSync(
    dataset,
    toJsonl(
      Array.from({ length: ROWS }, (_, i) => ({
        request_id: `q${i + 1}`,
        request: `Which plan includes ${i + 1} seats?`,
        response: `The team plan includes ${i + 1} seats.`,
        expected_response: `Team plan: ${i + 1} seats.`,
      })),
    ),
  );
});

afterAll(async () => {
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** One CLI run on a store of its own (no judge-cache entries shared), returning its calls and exported rows. */
async function evalWithTrials(trials: number) {
  const before = server.stats.totalRequests;
  const out = path.join(dir, `results-${trials}.json`);
  const { code, stdout, stderr } = await spawnEval(
    [
      ...["--dataset", dataset, "--judges", "correctness,safety", "--judge-model", "judge-model"],
      ...["--trials", String(trials), "--out", out, "--quiet"],
    ],
    {
      DATABASE_URL: `file:${path.join(dir, `trials-${trials}.db`)}`,
      OPENAI_API_KEY: "sk-test-trials-0000",
      OPENAI_BASE_URL: server.url,
    },
  ).done;
  expect(code, stderr).toBe(0);
  return {
    calls: server.stats.totalRequests - before,
    stdout,
    rows: rowsSchema.parse(JSON.parse(fs.readFileSync(out, "utf8"))).rows,
  };
}

describe("--trials", () => {
  it("makes three times the calls of one trial, says so before the run, and exports every trial", async () => {
    const one = await evalWithTrials(1);
    const three = await evalWithTrials(3);
    expect(one.calls).toBe(ROWS * METRICS.length);
    expect(three.calls).toBe(3 * one.calls);
    expect(three.stdout).toContain(`Estimate: ${three.calls} LLM calls`);
    expect(three.rows).toHaveLength(ROWS);
    for (const row of three.rows)
      for (const metric of METRICS) {
        const ratings = [1, 2, 3].map((trial) => row[`${metric}/trials/${trial}/rating`]);
        expect(ratings.every((rating) => rating === "yes" || rating === "no")).toBe(true);
        expect(row[`${metric}/trials/pass_rate`]).toBeCloseTo(ratings.filter((r) => r === "yes").length / 3, 12);
      }
    expect(Object.keys(one.rows[0]).some((key) => key.includes("/trials/"))).toBe(false);
  }, 120_000);
});
