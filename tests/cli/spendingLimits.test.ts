import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "@/lib/db/client";
import { toJsonl } from "../support/evalFiles";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../support/fakeOpenAIServer";
import { spawnEval } from "../support/spawnEval";

const ROWS = [
  { request_id: "a", request: "Is versioning on by default?", response: "No.", expected_response: "No." },
  { request_id: "b", request: "How long do deleted objects stay?", response: "7 days.", expected_response: "30 days." },
];
const PRICES = JSON.stringify({ "judge-priced": { input: 0.4, output: 1.6 } });

describe("npm run eval: the endpoint's in-flight limit and the server-wide spending limits", () => {
  let dir: string;
  let datasetFile: string;
  let server: FakeOpenAIServer;
  let env: Record<string, string>;
  let db: Db;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-cli-limits-"));
    datasetFile = path.join(dir, "set.jsonl");
    fs.writeFileSync(datasetFile, toJsonl(ROWS));
    server = await startFakeOpenAIServer({ responder: fakeJudgeResponder });
    const url = `file:${path.join(dir, "cli.db")}`;
    env = { DATABASE_URL: url, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "sk-test-limits-0000" };
    db = createDb(url);
  });
  afterAll(async () => {
    await db.$disconnect();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const judgeArgs = (model: string, ...more: string[]) => [
    "--dataset",
    datasetFile,
    "--judges",
    "correctness",
    "--judge-model",
    model,
    "--quiet",
    ...more,
  ];

  it("--concurrency 256 says it is above the endpoint's limit of 64 calls in flight; 16 under a limit of 8 says 8; 8 says nothing", async () => {
    const above = await spawnEval(judgeArgs("judge-a", "--concurrency", "256"), env).done;
    expect(above.code).toBe(0);
    expect(above.stderr).toContain(
      "--concurrency 256 is above this endpoint's limit of 64 calls in flight (ASSAY_LLM_MAX_IN_FLIGHT); at most 64 will run at once.",
    );
    const lowered = await spawnEval(judgeArgs("judge-a", "--concurrency", "16"), {
      ...env,
      ASSAY_LLM_MAX_IN_FLIGHT: "8",
    }).done;
    expect(lowered.code).toBe(0);
    expect(lowered.stderr).toContain("--concurrency 16 is above this endpoint's limit of 8 calls in flight");
    const within = await spawnEval(judgeArgs("judge-a", "--concurrency", "8"), env).done;
    expect(within.code).toBe(0);
    expect(within.stderr + within.stdout).not.toContain("ASSAY_LLM_MAX_IN_FLIGHT");
  });

  it("ASSAY_ALLOWED_MODELS refuses a judge or generation model it does not list, before anything is imported", async () => {
    const datasets = await db.dataset.count();
    const limited = { ...env, ASSAY_ALLOWED_MODELS: "judge-a, gen-a" };
    const judge = await spawnEval(judgeArgs("judge-b"), limited).done;
    expect(judge.code).toBe(2);
    expect(judge.stderr).toContain(
      "judge-b is not among the models this server allows (ASSAY_ALLOWED_MODELS: judge-a, gen-a)",
    );
    const generation = await spawnEval(judgeArgs("judge-a", "--generate-model", "gen-b"), limited).done;
    expect(generation.code).toBe(2);
    expect(generation.stderr).toContain("gen-b is not among the models this server allows");
    expect(await db.dataset.count()).toBe(datasets);
    // The offline judge is always allowed.
    const offline = await spawnEval(judgeArgs("heuristic"), limited).done;
    expect(offline.code).toBe(0);
  });

  it("ASSAY_MAX_RUN_USD: a budget above it and an unpriced model are refused; a run without a cost budget gets it", async () => {
    const limited = { ...env, ASSAY_MAX_RUN_USD: "5", ASSAY_LLM_PRICES: PRICES };
    const above = await spawnEval(judgeArgs("judge-priced", "--budget-usd", "10"), limited).done;
    expect(above.code).toBe(2);
    expect(above.stderr).toContain(
      "The cost budget $10 is above this server's limit of $5.00 per run (ASSAY_MAX_RUN_USD)",
    );
    const unpriced = await spawnEval(judgeArgs("judge-unpriced"), limited).done;
    expect(unpriced.code).toBe(2);
    expect(unpriced.stderr).toContain(
      "judge-unpriced has no price in ASSAY_LLM_PRICES, and this server allows at most $5.00 per run (ASSAY_MAX_RUN_USD)",
    );
    const bounded = await spawnEval(judgeArgs("judge-priced", "--name", "bounded by the server"), limited).done;
    expect(bounded.code).toBe(0);
    const run = await db.run.findFirstOrThrow({ where: { name: "bounded by the server" } });
    expect(run.budgetUsd).toBe(5);
    // A resume that asks for more than the limit is refused too.
    const resume = await spawnEval(["--resume", run.id, "--budget-usd", "7", "--quiet"], limited).done;
    expect(resume.code).toBe(2);
    expect(resume.stderr).toContain("The cost budget $7 is above this server's limit of $5.00 per run");
  });
});
