// ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER under parallel requests, on the test store (SQLite or PostgreSQL),
// through the server's own entry points (what the run form, the Align page and the API call): the count and the
// write in one transaction, so 20 starts at once with a limit of 1 start one run (counting in one transaction
// and creating in the next started 3 on PostgreSQL). An alignment being measured is one of the user's runs in
// progress, counted by the same check; measuring one again is checked as its first measurement is: the judge
// model against ASSAY_ALLOWED_MODELS, its estimate against ASSAY_MAX_RUN_USD, and the runs in progress.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AuthUser } from "@/lib/auth/guard";
import {
  claimAlignmentMeasurementWithinLimit,
  getAlignment,
  listAlignments,
  recordAlignmentFailure,
} from "@/lib/db/alignments/judgeAlignments";
import type { Db } from "@/lib/db/client";
import { startAlignment } from "@/lib/engine/alignment/startAlignment";
import { RunsInProgressRefusal } from "@/lib/engine/runsInProgressRefusal";
import { remeasureAlignmentFromRequest, startAlignmentFromRequest } from "@/lib/server/startAlignmentRequest";
import { runRequestSchema, type RunRequest } from "@/lib/engine/runRequest";
import { startRunFromRequest } from "@/lib/server/startRunRequest";
import { raiseBudgetAndReopen } from "@/lib/db/runs/runBudget";
import { reopenRunFor } from "@/lib/server/runSpendingGuard";
import { readRun, runToCompletion } from "../support/engineKit";
import { fakeExampleFollower } from "../support/fakeExampleFollower";
import { openServedDataset, type ServedDataset } from "../support/servedDataset";
import { labelRudeReplies, supportReplies } from "../support/supportReplies";

const TONE = "response/llm_judged/tone";
const RELEVANCE = "response/llm_judged/relevance_to_query";
const LIMIT_REFUSAL =
  "You have 1 run in progress, and this server allows at most 1 per user (ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER). Wait for one to finish, or cancel one.";

const user = (id: string, name: string): AuthUser => ({
  id,
  name,
  email: `${id}@example.com`,
  role: "runner",
  local: false,
});
const RITA = user("rita", "Rita");
const OTTO = user("otto", "Otto");

let world: ServedDataset;
let db: Db;
let baseRunId: string;

beforeAll(async () => {
  world = await openServedDataset(supportReplies(40), { responder: fakeExampleFollower });
  db = world.db;
  // The base run of the alignments, judged by a (fake) LLM: the offline judge cannot be aligned.
  ({ runId: baseRunId } = await runToCompletion(
    db,
    {
      datasetId: world.datasetId,
      metrics: [RELEVANCE],
      customJudges: [
        { assessmentName: "tone", assessmentType: "ANSWER", instructions: "Is the response polite and helpful?" },
      ],
      judge: { provider: "openai", model: "judge-model" },
    },
    world.server.url,
  ));
  await labelRudeReplies(db, world.datasetId, { ratings: [TONE, RELEVANCE], scores: [] }, { reasons: true });
  for (const who of [RITA, OTTO])
    await db.user.create({ data: { id: who.id, name: who.name, email: who.email ?? "", role: who.role } });
  // The server's environment: the limit, and no model endpoint unless a test gives one. The store is the
  // test's, should anything reach for the app's own.
  vi.stubEnv("ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER", "1");
  vi.stubEnv("DATABASE_URL", world.url);
  for (const name of [
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "ASSAY_LLM_PRICES",
    "ASSAY_MAX_RUN_USD",
    "ASSAY_ALLOWED_MODELS",
  ])
    vi.stubEnv(name, "");
}, 120_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await world?.close();
});

function heuristicRun(name: string): RunRequest {
  return runRequestSchema.parse({
    datasetId: world.datasetId,
    name,
    metrics: ["response/llm_judged/safety"],
    judge: "heuristic",
    concurrency: 1,
  });
}

/** Ends everything a user has in progress: their runs cancelled, their measurements failed. */
async function endAllOf(who: AuthUser): Promise<void> {
  await db.run.updateMany({ where: { createdById: who.id }, data: { status: "cancelled" } });
  await db.judgeAlignment.updateMany({ where: { createdById: who.id }, data: { status: "failed" } });
}

const runsOf = (who: AuthUser) =>
  db.run.count({ where: { createdById: who.id, status: { in: ["planning", "pending", "running"] } } });

describe("ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER under parallel requests", () => {
  it("20 run starts at once with a limit of 1: one starts, the other 19 are refused with the limit named", async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => startRunFromRequest(db, RITA, heuristicRun(`parallel ${i}`))),
    );
    const started = outcomes.filter((outcome) => outcome.ok);
    const refused = outcomes.filter((outcome) => !outcome.ok);
    expect(started).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const outcome of refused)
      expect(outcome).toMatchObject({ ok: false, kind: "refused", errors: [LIMIT_REFUSAL] });
    expect(await runsOf(RITA)).toBe(1);
    // Per user: another runner still starts one.
    expect(await startRunFromRequest(db, OTTO, heuristicRun("otto's run"))).toMatchObject({ ok: true });
  });

  it("resumes of the user's own paused runs, 10 at once with a limit of 1: one reopens, the rest are refused", async () => {
    await endAllOf(RITA);
    const paused: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const outcome = await startRunFromRequest(db, RITA, heuristicRun(`paused ${i}`));
      if (!outcome.ok) throw new Error(`run ${i} did not start`);
      // Paused at its budget before the next starts, so each start found room.
      await db.run.update({ where: { id: outcome.runId }, data: { status: "paused", pauseReason: "budget" } });
      paused.push(outcome.runId);
    }
    expect(await runsOf(RITA)).toBe(0);
    const outcomes = await Promise.all(paused.map((runId) => reopenRunFor(db, RITA, runId)));
    expect(outcomes.filter((outcome) => outcome.ok && outcome.reopened)).toHaveLength(1);
    const refused = outcomes.filter((outcome) => !outcome.ok);
    expect(refused).toHaveLength(9);
    for (const outcome of refused) expect(outcome).toEqual({ ok: false, message: LIMIT_REFUSAL });
    expect(await runsOf(RITA)).toBe(1);
    // A raised budget is kept but its run stays paused while the user is at the limit.
    const waiting = await db.run.findFirstOrThrow({ where: { createdById: RITA.id, status: "paused" } });
    const raised = await raiseBudgetAndReopen(
      db,
      waiting.id,
      { calls: 1000, tokens: null, usd: null },
      {
        userId: RITA.id,
        max: 1,
      },
    );
    expect(raised).toEqual({ ok: false, inProgress: 1 });
    expect((await db.run.findUniqueOrThrow({ where: { id: waiting.id } })).status).toBe("paused");
  });

  it("refuses an alignment while the user is at the limit, storing nothing", async () => {
    expect(await runsOf(RITA)).toBe(1);
    const outcome = await startAlignmentFromRequest(db, RITA, { runId: baseRunId, metric: TONE, guidance: null });
    expect(outcome).toEqual({ ok: false, kind: "forbidden", message: LIMIT_REFUSAL });
    expect(await listAlignments(db, world.datasetId, TONE)).toEqual([]);
  });

  it("counts an alignment being measured as a run in progress: a run start is then refused", async () => {
    await endAllOf(RITA);
    const run = await readRun(db, baseRunId);
    const alignment = await startAlignment(db, run, {
      metric: TONE,
      seed: "v1",
      createdById: RITA.id,
      inProgressLimit: { userId: RITA.id, max: 1 },
    });
    expect(alignment.status).toBe("measuring");
    expect(await startRunFromRequest(db, RITA, heuristicRun("while measuring"))).toMatchObject({
      ok: false,
      errors: [LIMIT_REFUSAL],
    });
    expect(await runsOf(RITA)).toBe(0);
  });

  it("one check for both: 10 run starts and 10 alignments at once put exactly one in progress", async () => {
    await endAllOf(RITA);
    const run = await readRun(db, baseRunId);
    const limit = { userId: RITA.id, max: 1 };
    const alignments = Array.from({ length: 10 }, (_, i) =>
      startAlignment(db, run, { metric: RELEVANCE, seed: `burst ${i}`, createdById: RITA.id, inProgressLimit: limit })
        .then(() => "started")
        .catch((error: unknown) => (error instanceof RunsInProgressRefusal ? "refused" : Promise.reject(error))),
    );
    const runs = Array.from({ length: 10 }, (_, i) =>
      startRunFromRequest(db, RITA, heuristicRun(`mixed ${i}`)).then((outcome) => (outcome.ok ? "started" : "refused")),
    );
    const outcomes = await Promise.all([...alignments, ...runs]);
    expect(outcomes.filter((outcome) => outcome === "started")).toHaveLength(1);
    const measuring = await db.judgeAlignment.count({ where: { createdById: RITA.id, status: "measuring" } });
    expect((await runsOf(RITA)) + measuring).toBe(1);
  });

  it("claims one of two failed alignments measured again at once with a limit of 1", async () => {
    await endAllOf(RITA);
    const run = await readRun(db, baseRunId);
    const failed = [];
    for (const seed of ["again 1", "again 2"]) {
      const made = await startAlignment(db, run, { metric: TONE, seed, createdById: RITA.id });
      await recordAlignmentFailure(db, made.id, "the endpoint was down");
      failed.push(made);
    }
    const limit = { userId: RITA.id, max: 1 };
    const claims = await Promise.all(
      failed.slice(0, 2).map((a) => claimAlignmentMeasurementWithinLimit(db, a.id, limit)),
    );
    expect(claims.filter((claim) => claim.ok && claim.value)).toHaveLength(1);
    expect(claims.filter((claim) => !claim.ok)).toEqual([{ ok: false, inProgress: 1 }]);
  });
});

describe("measuring an alignment again", () => {
  let alignmentId: string;

  beforeAll(async () => {
    await endAllOf(RITA);
    alignmentId = (await listAlignments(db, world.datasetId, TONE))[0].id;
    await recordAlignmentFailure(db, alignmentId, "the endpoint was down");
    await db.judgeAlignment.update({ where: { id: alignmentId }, data: { status: "failed" } });
  });

  it("is refused for a judge model outside ASSAY_ALLOWED_MODELS, with the reason on the alignment", async () => {
    vi.stubEnv("ASSAY_ALLOWED_MODELS", "gpt-4.1-mini");
    try {
      const outcome = await remeasureAlignmentFromRequest(db, RITA, alignmentId);
      const reason =
        "judge-model is not among the models this server allows (ASSAY_ALLOWED_MODELS: gpt-4.1-mini). Choose one of them, or the offline heuristic judge.";
      expect(outcome).toEqual({ ok: false, kind: "forbidden", message: reason });
      expect(await getAlignment(db, alignmentId)).toMatchObject({
        status: "failed",
        errorMessage: `not measured again: ${reason.slice(0, -1)}`,
      });
    } finally {
      vi.stubEnv("ASSAY_ALLOWED_MODELS", "");
    }
  });

  it("is refused when its estimate is over ASSAY_MAX_RUN_USD", async () => {
    // A priced endpoint: measuring the 16 held-out rows again is estimated at dollars, over a cent.
    vi.stubEnv("OPENAI_API_KEY", "sk-test-remeasure-0000");
    vi.stubEnv("OPENAI_BASE_URL", world.server.url);
    vi.stubEnv("ASSAY_LLM_PRICES", JSON.stringify({ "judge-model": { input: 1000, output: 1000 } }));
    vi.stubEnv("ASSAY_MAX_RUN_USD", "0.01");
    try {
      const outcome = await remeasureAlignmentFromRequest(db, RITA, alignmentId);
      expect(outcome).toMatchObject({ ok: false, kind: "forbidden" });
      if (outcome.ok) return;
      expect(outcome.message).toMatch(
        /^Measuring this alignment is estimated at \$\d+\.\d\d, above this server's limit of \$0\.01 per run \(ASSAY_MAX_RUN_USD\)\./,
      );
      expect((await getAlignment(db, alignmentId))?.status).toBe("failed");
    } finally {
      for (const name of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "ASSAY_LLM_PRICES", "ASSAY_MAX_RUN_USD"])
        vi.stubEnv(name, "");
    }
  });

  it("is refused while the user is at the limit of runs in progress", async () => {
    expect(await startRunFromRequest(db, RITA, heuristicRun("in progress"))).toMatchObject({ ok: true });
    expect(await remeasureAlignmentFromRequest(db, RITA, alignmentId)).toEqual({
      ok: false,
      kind: "forbidden",
      message: LIMIT_REFUSAL,
    });
    expect((await getAlignment(db, alignmentId))?.status).toBe("failed");
  });
});
