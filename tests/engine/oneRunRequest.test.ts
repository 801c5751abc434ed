// One run request, whoever asks: the run form's fields (read by the server action's reader), the JSON body of
// POST /api/v1/runs (through the route handler itself) and the CLI's arguments (the real CLI, as a process)
// store the same run for the same choices: its config, judge, budget, tags, custom and G-Eval judges, and the
// same plan of work.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as postRun } from "@/app/api/v1/runs/route";
import { LOCAL_ADMIN } from "@/lib/auth/guard";
import { closeDb, getDb, type Db } from "@/lib/db/client";
import { runRequestFromForm } from "@/lib/server/runForm/runRequestFromForm";
import { startRunFromRequest } from "@/lib/server/startRunRequest";
import { readRun } from "../support/engineKit";
import { fakeJudgeResponder } from "../support/fakeJudgeResponder";
import { openServedDataset, type ServedDataset } from "../support/servedDataset";
import { spawnEval } from "../support/spawnEval";
import { syntheticRows } from "../support/syntheticRows";

const CUSTOM_JUDGE = {
  assessmentName: "cites_settings",
  assessmentType: "ANSWER" as const,
  instructions: "The response names the settings page the user has to open.",
};
const G_EVAL = {
  name: "concise",
  criteria: "The response answers in as few words as the question allows.",
  evaluationParams: ["input", "actual_output"],
  threshold: 0.6,
};
const NAME = "same choices";

let world: ServedDataset;
let db: Db;
let dir: string;
const savedEnv = { ...process.env };

beforeAll(async () => {
  world = await openServedDataset(syntheticRows(6, 2), { responder: fakeJudgeResponder });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-one-request-"));
  // The app's own store and model endpoint, as a server has them; no web worker, so nothing is judged here.
  Object.assign(process.env, {
    DATABASE_URL: world.url,
    OPENAI_BASE_URL: world.server.url,
    OPENAI_API_KEY: "sk-test-one-request-0000",
    ASSAY_WEB_WORKER: "0",
    ASSAY_ADDRESS_CHECKED: "127.0.0.1",
  });
  delete process.env.ASSAY_AUTH_SECRET;
  db = getDb();
}, 60_000);

afterAll(async () => {
  await closeDb(getDb()).catch(() => {});
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
  await world?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** What a stored run is, without what differs between any two runs (ids, times, progress). */
async function storedRun(runId: string) {
  const run = await readRun(db, runId);
  // The CLI judges its run at once; the others wait for a worker. The plan is the same work either way:
  // per metric, how many items are to be judged and how many are skipped.
  const plan: Record<string, { planned: number; skipped: number }> = {};
  for (const group of await db.judgmentItem.groupBy({
    by: ["metric", "status"],
    where: { runId },
    _count: { _all: true },
  })) {
    plan[group.metric] ??= { planned: 0, skipped: 0 };
    plan[group.metric][group.status === "skipped" ? "skipped" : "planned"] += group._count._all;
  }
  const row = await db.run.findUniqueOrThrow({
    where: { id: runId },
    select: { budgetCalls: true, budgetTokens: true, budgetUsd: true, createdById: true },
  });
  return {
    name: run.name,
    tags: run.tags,
    judge: [run.judgeProvider, run.judgeModel],
    concurrency: run.concurrency,
    config: run.config,
    customJudges: run.customJudges.map(({ id: _id, runId: _runId, ...judge }) => judge),
    generation: [run.generationModel, run.generationSystemPrompt],
    budget: row,
    plan,
  };
}

/** The run form's fields, as RunForm.tsx posts them, through the form's reading and the start of a run. */
async function runFromForm(fields: Record<string, string>, metrics: string[]): Promise<string> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const metric of metrics) form.append("metrics", metric);
  const read = runRequestFromForm(form);
  if (!read.ok) throw new Error(`${read.message} ${read.errors.join("; ")}`);
  const started = await startRunFromRequest(db, LOCAL_ADMIN, read.request);
  if (!started.ok) throw new Error(`${started.message} ${started.errors.join("; ")}`);
  return started.runId;
}

/** The same choices as JSON, through POST /api/v1/runs's route handler. */
async function runFromApi(body: Record<string, unknown>): Promise<string> {
  const answer = await postRun(
    new Request("http://127.0.0.1:3000/api/v1/runs", {
      method: "POST",
      headers: { "content-type": "application/json", host: "127.0.0.1:3000" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({}) },
  );
  const created = (await answer.json()) as { id: string };
  expect(answer.status, JSON.stringify(created)).toBe(201);
  return created.id;
}

/** The CLI, as a process, on the same store and endpoint. */
async function runFromCli(args: string[]): Promise<string> {
  const cli = await spawnEval(args, {
    DATABASE_URL: world.url,
    OPENAI_BASE_URL: world.server.url,
    OPENAI_API_KEY: "sk-test-one-request-0000",
  }).done;
  expect(cli.stderr).toBe("");
  const runId = /Run (\S+) "/.exec(cli.stdout)?.[1];
  if (!runId) throw new Error(`the CLI started no run:\n${cli.stdout}`);
  return runId;
}

describe("one run request", () => {
  it("the run form, POST /api/v1/runs and the CLI store the same run for the same choices", async () => {
    const viaFormId = await runFromForm(
      {
        datasetId: world.datasetId,
        name: NAME,
        tags: "branch=main, nightly",
        judge: "model",
        judgeModel: "judge-same",
        concurrency: "4",
        trials: "2",
        chunkMode: "per_chunk",
        customJudges: JSON.stringify([CUSTOM_JUDGE]),
        gEvalJudges: JSON.stringify([
          {
            name: G_EVAL.name,
            criteria: G_EVAL.criteria,
            steps: "",
            evaluationParams: G_EVAL.evaluationParams,
            scale: "",
            rubric: "",
            threshold: G_EVAL.threshold,
          },
        ]),
        "threshold:faithfulness": "0.7",
        bleuType: "bleu2",
        "deepEval:shown": "1",
        "deepEval:strictMode": "on",
        "deepEval:includeReason": "on",
        "deepEval:listCap": "12",
        budgetCalls: "500",
        budgetTokens: "",
        budgetUsd: "",
      },
      ["correctness", "faithfulness", "bleu"],
    );
    const viaApiId = await runFromApi({
      datasetId: world.datasetId,
      name: NAME,
      tags: ["branch=main", "nightly"],
      metrics: ["correctness", "faithfulness", "bleu"],
      judge: "model",
      judgeModel: "judge-same",
      concurrency: 4,
      trials: 2,
      chunkMode: "per_chunk",
      thresholds: { faithfulness: 0.7 },
      statistical: { bleuType: "bleu2" },
      deepEval: { strictMode: true, listCap: 12 },
      customJudges: [CUSTOM_JUDGE],
      gEvalJudges: [G_EVAL],
      budget: { calls: 500 },
    });

    const judgesFile = path.join(dir, "judges.json");
    fs.writeFileSync(judgesFile, JSON.stringify([CUSTOM_JUDGE]));
    const viaCliId = await runFromCli([
      ...["--dataset-id", world.datasetId, "--name", NAME, "--tag", "branch=main", "--tag", "nightly"],
      ...["--judges", "correctness,faithfulness,bleu", "--judge-model", "judge-same"],
      ...["--concurrency", "4", "--trials", "2", "--chunk-mode", "per_chunk", "--threshold", "faithfulness=0.7"],
      ...["--bleu-type", "bleu2", "--strict-mode", "--list-cap", "12", "--custom-judges", judgesFile],
      ...["--g-eval", `name=${G_EVAL.name};criteria=${G_EVAL.criteria};params=input,actual_output;threshold=0.6`],
      ...["--budget-calls", "500", "--quiet"],
    ]);

    const [viaForm, viaApi, viaCli] = await Promise.all([viaFormId, viaApiId, viaCliId].map(storedRun));
    expect(Object.keys(viaForm.plan)).toHaveLength(5);
    // Two trials: every row of every metric planned twice (6 rows).
    expect(viaForm.config.trials).toBe(2);
    for (const { planned, skipped } of Object.values(viaForm.plan)) expect(planned + skipped).toBe(12);
    expect(viaForm.customJudges).toHaveLength(1);
    expect(viaForm.budget.budgetCalls).toBe(500);
    expect(viaApi).toEqual(viaForm);
    expect(viaCli).toEqual(viaForm);
  }, 120_000);

  it("DeepEval-exact is one setting, stored the same from the form's calls select, the API and --deepeval-exact", async () => {
    const name = "exact everywhere";
    const viaFormId = await runFromForm(
      {
        datasetId: world.datasetId,
        name,
        judge: "model",
        judgeModel: "judge-exact",
        concurrency: "4",
        trials: "1",
        chunkMode: "per_chunk",
        "deepEval:shown": "1",
        "deepEval:includeReason": "on",
        "deepEval:callStructure": "exact",
      },
      ["faithfulness", "bleu"],
    );
    const viaApiId = await runFromApi({
      ...{ datasetId: world.datasetId, name, metrics: ["faithfulness", "bleu"], judge: "model" },
      ...{ judgeModel: "judge-exact", concurrency: 4, chunkMode: "per_chunk", deepEval: { exact: true } },
    });
    const viaCliId = await runFromCli([
      ...["--dataset-id", world.datasetId, "--name", name, "--judges", "faithfulness,bleu"],
      ...["--judge-model", "judge-exact", "--concurrency", "4", "--chunk-mode", "per_chunk"],
      ...["--deepeval-exact", "--quiet"],
    ]);
    const [viaForm, viaApi, viaCli] = await Promise.all([viaFormId, viaApiId, viaCliId].map(storedRun));
    expect(viaForm.config.deepEval).toEqual({ exact: true });
    expect(viaForm.config.statistical).toEqual({ bleuType: "bleu1" });
    expect(viaApi).toEqual(viaForm);
    expect(viaCli).toEqual(viaForm);
  }, 120_000);

  it("refuses trials outside 1–10 in the form and the API, naming what is allowed", async () => {
    const form = new FormData();
    for (const [key, value] of Object.entries({
      datasetId: world.datasetId,
      judge: "heuristic",
      concurrency: "4",
      trials: "11",
      chunkMode: "batched",
    }))
      form.append(key, value);
    form.append("metrics", "safety");
    const read = runRequestFromForm(form);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.errors).toContain("trials: a whole number from 1 to 10");
    const answer = await postRun(
      new Request("http://127.0.0.1:3000/api/v1/runs", {
        method: "POST",
        headers: { "content-type": "application/json", host: "127.0.0.1:3000" },
        body: JSON.stringify({ datasetId: world.datasetId, metrics: ["safety"], judge: "heuristic", trials: 0 }),
      }),
      { params: Promise.resolve({}) },
    );
    expect(answer.status).toBe(400);
    expect(JSON.stringify(await answer.json())).toContain("a whole number from 1 to 10");
  });
});
