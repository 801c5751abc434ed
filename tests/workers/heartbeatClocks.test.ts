// Servers on several machines decide by one clock, the store's, for the heartbeats besides a run's lease (which
// workerClocks.test.ts covers): an alignment's measurement, an upload's ownership, a label file's staging and a
// sign-in window. A server whose own clock is a minute ahead or behind (vi.setSystemTime: its Date, not the
// store's) neither takes over or discards what a live server is doing nor keeps what a stopped one left.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { buildAlignedDefinition } from "@/lib/alignment/alignedDefinition";
import { reserveSignInAttempt } from "@/lib/auth/signInThrottle";
import {
  claimAlignmentMeasurement,
  createAlignment,
  getAlignment,
  isAlignmentMeasurementStopped,
  recordAlignmentProgress,
  recordAlignmentRefusal,
  type NewAlignment,
} from "@/lib/db/alignments/judgeAlignments";
import { sqlOf, type Db } from "@/lib/db/client";
import { claimImport, discardOrphanedImports, renewImportHeartbeats } from "@/lib/db/datasets/importCleanup";
import { discardStaleLabelImports, stageLabels } from "@/lib/db/labels/labelImportWrites";
import { countInProgress } from "@/lib/db/runs/runsInProgress";
import { HEARTBEAT_STALE_MS } from "@/lib/server/importOwnership";
import { importRows } from "../support/engineKit";
import { syntheticRows } from "../support/syntheticRows";
import { createTempDb, type TempDb } from "../support/tempDb";
import { clockOff } from "../support/clockOff";

const MINUTE = 60_000;
const CORRECTNESS = "response/llm_judged/correctness";
const NO_SPENDING = { llmCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: null };
const DIRECTIONS = [
  ["ahead", MINUTE],
  ["behind", -MINUTE],
] as const;

/** `ms` before now, by this machine's real clock (the store's). */
const realAgo = (ms: number) => new Date(vi.getRealSystemTime() - ms);

let store: TempDb;
let db: Db;
let datasetId: string;

beforeAll(async () => {
  store = await createTempDb();
  db = store.db;
  datasetId = await importRows(db, syntheticRows(3, 1));
});
afterEach(() => vi.useRealTimers());
afterAll(async () => store?.cleanup());

describe("an alignment's measurement, with servers whose clocks are a minute off", () => {
  let made = 0;
  /** An alignment being measured, started by a user of its own (whose runs in progress it alone is). */
  const measuring = async () => {
    const createdById = `user-${++made}`;
    await db.user.create({ data: { id: createdById, name: createdById, email: `${createdById}@example.com` } });
    const stored = await createAlignment(db, alignment(createdById));
    return stored.id;
  };
  const alignment = (createdById: string): NewAlignment => ({
    datasetId,
    metric: CORRECTNESS,
    seed: "seed",
    heldOutShare: 0.4,
    trainingKeys: ["r1"],
    heldOutKeys: ["r2"],
    examples: [],
    guidance: null,
    promptSuffix: "+aligned/abcdef012345",
    baseRunId: null,
    judgeModel: "judge-model",
    createdById,
    defineJudge: (version) =>
      buildAlignedDefinition({ kind: "built-in", metric: CORRECTNESS }, version, { examples: [], guidance: null }),
  });
  const statusOf = async (id: string) => (await getAlignment(db, id))?.status;
  /** Whether this alignment counts among its creator's runs in progress (ASSAY_MAX_RUNS_IN_PROGRESS_PER_USER). */
  const counted = async (id: string) => {
    const { createdById } = await db.judgeAlignment.findUniqueOrThrow({ where: { id }, select: { createdById: true } });
    return (await countInProgress(sqlOf(db), createdById ?? "")) === 1;
  };

  it.each(DIRECTIONS)(
    "a server a minute %s does not take over, refuse or stop counting a live measurement",
    async (_, offset) => {
      const id = await measuring();
      await recordAlignmentProgress(db, id, { done: 0, spent: NO_SPENDING });
      clockOff(offset);
      expect(await isAlignmentMeasurementStopped(db, id)).toBe(false);
      expect(await counted(id)).toBe(true);
      await recordAlignmentRefusal(db, id, "not measured again: over the limit");
      expect(await statusOf(id)).toBe("measuring");
      expect(await claimAlignmentMeasurement(db, id)).toBe(false);
    },
  );

  it.each(DIRECTIONS)("a server a minute %s takes over a measurement whose server stopped", async (_, offset) => {
    const id = await measuring();
    // Silent for longer than MEASUREMENT_STALE_MS (30 s), by the store's clock.
    await db.judgeAlignment.update({ where: { id }, data: { heartbeatAt: realAgo(45_000) } });
    clockOff(offset);
    expect(await isAlignmentMeasurementStopped(db, id)).toBe(true);
    expect(await counted(id)).toBe(false);
    expect(await claimAlignmentMeasurement(db, id)).toBe(true);
    // Its own heartbeat, just written, is live to the others.
    vi.useRealTimers();
    expect(await claimAlignmentMeasurement(db, id)).toBe(false);
    expect(await counted(id)).toBe(true);
  });

  it.each(DIRECTIONS)("the heartbeat a server a minute %s writes is live to the others", async (_, offset) => {
    clockOff(offset);
    const id = await measuring();
    await recordAlignmentProgress(db, id, { done: 0, spent: NO_SPENDING });
    vi.useRealTimers();
    expect(await isAlignmentMeasurementStopped(db, id)).toBe(false);
    expect(await counted(id)).toBe(true);
    expect(await claimAlignmentMeasurement(db, id)).toBe(false);
  });
});

describe("an upload's ownership, with servers whose clocks are a minute off", () => {
  const OWNER = "elsewhere.example:1:abc"; // a server on another machine: only its heartbeat tells it is alive
  const sweep = () => discardOrphanedImports(db, { isOwnerAlive: () => true, staleAfterMs: HEARTBEAT_STALE_MS });
  const exists = async (id: string) => (await db.dataset.count({ where: { id } })) === 1;
  const upload = async (name: string, silentMs = 0) => {
    const { id } = await db.dataset.create({ data: { name, status: "importing" } });
    await claimImport(db, id, OWNER);
    if (silentMs > 0) await db.dataset.update({ where: { id }, data: { importHeartbeatAt: realAgo(silentMs) } });
    return id;
  };

  it.each(DIRECTIONS)("a server a minute %s does not discard a live upload", async (_, offset) => {
    const id = await upload(`live ${offset}`);
    clockOff(offset);
    await sweep();
    expect(await exists(id)).toBe(true);
  });

  it.each(DIRECTIONS)("a server a minute %s discards an upload whose owner went silent", async (_, offset) => {
    // Silent for longer than HEARTBEAT_STALE_MS (60 s), by the store's clock.
    const id = await upload(`silent ${offset}`, 90_000);
    clockOff(offset);
    await sweep();
    expect(await exists(id)).toBe(false);
  });

  it.each(DIRECTIONS)("the heartbeat an owner a minute %s writes keeps its upload", async (_, offset) => {
    const id = await upload(`renewed ${offset}`, 90_000);
    clockOff(offset);
    expect(await renewImportHeartbeats(db, OWNER)).toBeGreaterThanOrEqual(1);
    vi.useRealTimers();
    await sweep();
    expect(await exists(id)).toBe(true);
  });
});

describe("a label file's staging, with servers whose clocks are a minute off", () => {
  const HOUR = 60 * MINUTE; // labelImport.ts STALE_IMPORT_MS
  const staged = async (importId: string, ageMs: number) => {
    const row = await db.datasetRow.findFirstOrThrow({ where: { datasetId }, select: { id: true } });
    const entry = { metric: CORRECTNESS, chunkPosition: -1, value: { kind: "rating", rating: "yes" } } as const;
    await stageLabels(db, importId, [
      { fileRow: 1, fileLine: 2, rowId: row.id, entry, labelledBy: null, statedBy: null },
    ]);
    await db.labelImportStaging.updateMany({ where: { importId }, data: { createdAt: realAgo(ageMs) } });
  };
  const left = async (importId: string) => db.labelImportStaging.count({ where: { importId } });

  it.each(DIRECTIONS)(
    "a server a minute %s discards an import staged over an hour ago and keeps a younger one",
    async (_, offset) => {
      const young = `young ${offset}`;
      const old = `old ${offset}`;
      await staged(young, HOUR - 30_000);
      await staged(old, HOUR + 30_000);
      clockOff(offset);
      await discardStaleLabelImports(db, HOUR);
      expect(await left(young)).toBe(1);
      expect(await left(old)).toBe(0);
    },
  );
});

describe("a sign-in window, with servers whose clocks are a minute off", () => {
  const WINDOW = 15 * MINUTE; // signInThrottle.ts SIGN_IN_WINDOW_MS
  const failuresOf = async (email: string) =>
    (await db.signInThrottle.findUniqueOrThrow({ where: { email } })).failures;
  const windowStartedAgo = async (email: string, ms: number) => {
    expect((await reserveSignInAttempt(db, email)).ok).toBe(true);
    await db.signInThrottle.update({ where: { email }, data: { windowStart: realAgo(ms) } });
  };

  it.each(DIRECTIONS)("a server a minute %s counts in a window still open, and starts one ended", async (_, offset) => {
    const open = `open${offset}@example.com`;
    const ended = `ended${offset}@example.com`;
    await windowStartedAgo(open, WINDOW - 30_000);
    await windowStartedAgo(ended, WINDOW + 30_000);
    clockOff(offset);
    expect((await reserveSignInAttempt(db, open)).ok).toBe(true);
    expect((await reserveSignInAttempt(db, ended)).ok).toBe(true);
    expect(await failuresOf(open)).toBe(2);
    expect(await failuresOf(ended)).toBe(1);
  });
});
