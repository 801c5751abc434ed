// Over real HTTP with accounts on and ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER=1: a runner with a run in progress is
// refused a second (startRun's answer names the limit), nothing is stored, and once that run has ended the
// same request starts one. Runs are counted per creator, so another user's run in progress does not count.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUPPORT_SAMPLE } from "./helpers";
import { createDb, type Db } from "@/lib/db/client";
import { createRun } from "@/lib/engine/createRun";
import { HEURISTIC_MODEL } from "@/lib/judges/heuristic";
import { startAppServer, type AppServer } from "./appServer";
import {
  callAction,
  createUsers,
  E2E_AUTH_SECRET,
  formData,
  serverActionIds,
  signInCookie,
  USERS,
} from "./authSession";

let server: AppServer;
let db: Db;
let runnerCookie: string;
let startRunId: string;
let sampleId: string;

beforeAll(async () => {
  server = await startAppServer({
    env: { ASSAY_AUTH_SECRET: E2E_AUTH_SECRET, ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER: "1" },
  });
  db = createDb(server.databaseUrl);
  await createUsers(server.databaseUrl, [USERS.runner, USERS.admin]);
  runnerCookie = await signInCookie(server.baseUrl, USERS.runner);
  startRunId = serverActionIds().get("startRun") ?? "";
  sampleId = (await db.dataset.findFirstOrThrow({ where: { name: SUPPORT_SAMPLE } })).id;
}, 240_000);

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

/** A run of `email`'s held "running" under another process's live lease, so nothing here finishes it. */
async function runningRunOf(email: string): Promise<string> {
  const creator = await db.user.findFirstOrThrow({ where: { email } });
  const runId = await createRun(
    db,
    {
      datasetId: sampleId,
      name: `running run of ${creator.name}`,
      metrics: ["response/llm_judged/safety"],
      judge: { provider: "heuristic", model: HEURISTIC_MODEL },
      concurrency: 1,
      chunkMode: "batched",
    },
    { createdById: creator.id },
  );
  await db.run.update({
    where: { id: runId },
    data: { status: "running", leaseOwner: "another-process", leaseExpiresAt: new Date(Date.now() + 3_600_000) },
  });
  return runId;
}

function startRunArgs(name: string) {
  return [
    { message: null, errors: [] },
    formData({
      datasetId: sampleId,
      name,
      metrics: ["response/llm_judged/safety"],
      judge: "heuristic",
      concurrency: "1",
      chunkMode: "batched",
    }),
  ];
}

describe("ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER", () => {
  it("refuses a runner's second run in progress with the limit named, and starts it once the first has ended", async () => {
    await runningRunOf(USERS.admin.email); // someone else's: not counted against the runner
    const first = await runningRunOf(USERS.runner.email);
    const page = `/datasets/${sampleId}/runs/new`;
    const refused = await callAction(server.baseUrl, page, startRunId, startRunArgs("second run"), {
      cookie: runnerCookie,
    });
    expect(refused.body).toContain(
      "You have 1 run in progress, and this server allows at most 1 per user (ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER). Wait for one to finish, or cancel one.",
    );
    expect(await db.run.count({ where: { name: "second run" } })).toBe(0);

    await db.run.update({
      where: { id: first },
      data: { status: "cancelled", leaseOwner: null, leaseExpiresAt: null },
    });
    const started = await callAction(server.baseUrl, page, startRunId, startRunArgs("second run"), {
      cookie: runnerCookie,
    });
    expect(started.redirect).toMatch(/\/runs\//);
    expect(await db.run.count({ where: { name: "second run" } })).toBe(1);
  });
});
