// The role matrix over real HTTP, against the built app with accounts on
// (ASSAY_AUTH_SECRET set): every state-changing endpoint, server actions
// included, tried without a session, with a role too weak, and cross-site,
// each refused with nothing changed in the database; then by the weakest role
// allowed, which changes it.
//
// Server actions are called the way Next's own client calls them: a POST to
// the page that uses the action, with its id (read from this build's
// server-reference-manifest.json) in the Next-Action header and the arguments
// encoded by React's encodeReply. That is the request a browser sends; a
// viewer's browser never shows the buttons, so the only way to prove the
// server refuses is to send the request the button would have sent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUPPORT_SAMPLE } from "./helpers";
import { buildAlignedDefinition } from "@/lib/alignment/alignedDefinition";
import { createAlignment, getAlignment, recordAlignmentComparison } from "@/lib/db/alignments/judgeAlignments";
import { createApiKey } from "@/lib/auth/apiKeys";
import { createAuth } from "@/lib/auth/createAuth";
import { KEY_NOT_ACCEPTED_MESSAGE } from "@/lib/auth/guard";
import { describeAction, type Action } from "@/lib/auth/permissions";
import type { Role } from "@/lib/auth/roles";
import { createDb, type Db } from "@/lib/db/client";
import { createRun } from "@/lib/engine/createRun";
import { HEURISTIC_MODEL } from "@/lib/judges/heuristic";
import { toJsonl } from "../support/evalFiles";
import { startAppServer, type AppServer } from "./appServer";
import {
  callAction,
  createUsers,
  E2E_AUTH_SECRET,
  formData,
  OTHER_USER,
  serverActionIds,
  signInCookie,
  USERS,
  type ActionReply,
} from "./authSession";

const EVIL = "https://evil.example";

let server: AppServer;
let db: Db;
let cookies: Record<Role, string>;
/** A working admin key (it passes /api/v1 below), sent to every server action, which must refuse it. */
let adminKey: string;
let actionIds: Map<string, string>;
let sampleId: string;
/** endpoint → who → HTTP status seen: printed at the end, for the record. */
const seen = new Map<string, Record<string, number>>();

function record(endpoint: string, who: string, status: number): void {
  seen.set(endpoint, { ...seen.get(endpoint), [who]: status });
}

beforeAll(async () => {
  server = await startAppServer({ env: { ASSAY_AUTH_SECRET: E2E_AUTH_SECRET } });
  db = createDb(server.databaseUrl);
  await createUsers(server.databaseUrl, [...Object.values(USERS), OTHER_USER]);
  // Three sign-ins: exactly the rate limit's 3 per 10 s per client address.
  cookies = {
    viewer: await signInCookie(server.baseUrl, USERS.viewer),
    runner: await signInCookie(server.baseUrl, USERS.runner),
    admin: await signInCookie(server.baseUrl, USERS.admin),
  };
  actionIds = serverActionIds();
  const sample = await db.dataset.findFirstOrThrow({ where: { name: SUPPORT_SAMPLE } });
  sampleId = sample.id;
  const admin = await db.user.findUniqueOrThrow({ where: { email: USERS.admin.email } });
  const auth = createAuth({ db, secret: E2E_AUTH_SECRET, baseURL: server.baseUrl });
  adminKey = (await createApiKey(auth, { id: admin.id, role: "admin" }, { name: "leaked CI", role: "admin" })).key;
  const works = await fetch(`${server.baseUrl}/api/v1/runs`, { headers: { authorization: `Bearer ${adminKey}` } });
  expect(works.status).toBe(200);
}, 240_000);

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
  if (seen.size > 0) {
    const whos = ["no session", "viewer", "runner", "cross-site", "admin API key", "admin"];
    const lines = [...seen].map(([endpoint, byWho]) =>
      [endpoint.padEnd(44), ...whos.map((who) => String(byWho[who] ?? "").padEnd(14))].join(""),
    );
    console.log(["endpoint".padEnd(44) + whos.map((w) => w.padEnd(14)).join(""), ...lines].join("\n"));
  }
});

/** A run on the sample dataset in the given state, made beside the server on the same database file. */
async function runIn(
  status: "running" | "failed" | "completed",
  name = "matrix run",
  datasetId = sampleId,
): Promise<string> {
  const runId = await createRun(db, {
    datasetId,
    name,
    metrics: ["response/llm_judged/safety"],
    judge: { provider: "heuristic", model: HEURISTIC_MODEL },
    concurrency: 1,
    chunkMode: "batched",
  });
  if (status === "completed")
    await db.judgmentItem.updateMany({ where: { runId, status: "pending" }, data: { status: "error" } });
  // "running" under another process's live lease: nothing here resumes or finishes it while the test looks.
  await db.run.update({
    where: { id: runId },
    data: {
      status,
      leaseOwner: status === "running" ? "another-process" : null,
      leaseExpiresAt: status === "running" ? new Date(Date.now() + 3_600_000) : null,
    },
  });
  return runId;
}

/** A run started by `creatorEmail`, paused by its call budget of 1 with its judgments pending: what raiseRunBudget acts on. */
async function budgetPausedRunOf(creatorEmail: string): Promise<string> {
  const creator = await db.user.findFirstOrThrow({ where: { email: creatorEmail } });
  const runId = await createRun(
    db,
    {
      datasetId: sampleId,
      name: `paused run of ${creator.name}`,
      metrics: ["response/llm_judged/safety"],
      judge: { provider: "heuristic", model: HEURISTIC_MODEL },
      concurrency: 1,
      chunkMode: "batched",
    },
    { createdById: creator.id, budget: { calls: 1, tokens: null, usd: null } },
  );
  await db.run.update({
    where: { id: runId },
    data: { status: "paused", pauseReason: "budget", errorMessage: "Paused: budget of 1 LLM calls reached." },
  });
  return runId;
}

async function budgetCallsOf(runId: string): Promise<number | null | undefined> {
  return (await db.run.findUnique({ where: { id: runId }, select: { budgetCalls: true } }))?.budgetCalls;
}

async function runStatus(runId: string): Promise<string | null> {
  return (await db.run.findUnique({ where: { id: runId }, select: { status: true } }))?.status ?? null;
}

type Attempt = { who: string; cookie?: string; origin?: string; fetchSite?: string; authorization?: string };

/** The refused tries of an action whose weakest allowed role is `min`, and the allowed one. */
function attemptsFor(min: Role): { refused: Attempt[]; allowed: Attempt } {
  const refused: Attempt[] = [{ who: "no session" }, { who: "viewer", cookie: cookies.viewer }];
  if (min === "admin") refused.push({ who: "runner", cookie: cookies.runner });
  // Cross-site with the allowed role's own session: a page on another site posting with the user's cookies.
  refused.push({ who: "cross-site", cookie: cookies[min], origin: EVIL, fetchSite: "cross-site" });
  return { refused, allowed: { who: min, cookie: cookies[min] } };
}

type ActionCase = {
  action: string;
  /** The policy entry its guard checks (lib/auth/permissions.ts). */
  policy: Action;
  min: Role;
  /** Makes what the action acts on; returns the page to post from, the arguments, and how to read the effect. */
  setUp: () => Promise<{ page: string; args: unknown[]; effect: () => Promise<unknown> }>;
  /** The effect once the allowed role has called it (compared with the value before). */
  changed: (before: unknown, after: unknown, reply: ActionReply) => void;
};

const NOTHING_SPENT = { llmCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: null };

const ACTIONS: ActionCase[] = [
  {
    action: "startRun",
    policy: "run.start",
    min: "runner",
    setUp: async () => ({
      page: `/datasets/${sampleId}/runs/new`,
      args: [
        { message: null, errors: [] },
        formData({
          datasetId: sampleId,
          name: "started over HTTP",
          metrics: ["response/llm_judged/safety"],
          judge: "heuristic",
          concurrency: "2",
          chunkMode: "batched",
        }),
      ],
      effect: () => db.run.count({ where: { name: "started over HTTP" } }),
    }),
    changed: (before, after, reply) => {
      expect(after).toBe((before as number) + 1);
      expect(reply.redirect).toMatch(/\/runs\//);
    },
  },
  {
    action: "decideJudgeAlignment",
    policy: "judge.align",
    min: "runner",
    setUp: async () => {
      const made = await createAlignment(db, {
        datasetId: sampleId,
        metric: "response/llm_judged/safety",
        seed: "v1",
        heldOutShare: 0.4,
        trainingKeys: ["a", "b"],
        heldOutKeys: ["c"],
        examples: [{ key: "a", label: "no", text: "Request: x\nResponse: y", reason: null }],
        guidance: null,
        promptSuffix: "+aligned/000000000000",
        baseRunId: null,
        judgeModel: "judge-model",
        createdById: null,
        defineJudge: (version) =>
          buildAlignedDefinition({ kind: "built-in", metric: "response/llm_judged/safety" }, version, {
            examples: [{ key: "a", label: "no", text: "Request: x\nResponse: y", reason: null }],
            guidance: null,
          }),
      });
      await recordAlignmentComparison(db, made.id, { verdict: "no real change" }, { done: 1, spent: NOTHING_SPENT });
      return {
        page: `/alignments/${made.id}`,
        args: [formData({ alignmentId: made.id, decision: "discard" })],
        effect: async () => (await getAlignment(db, made.id))?.status,
      };
    },
    changed: (before, after) => {
      expect(before).toBe("measured");
      expect(after).toBe("discarded");
    },
  },
  {
    action: "cancelRun",
    policy: "run.cancel",
    min: "runner",
    setUp: async () => {
      const runId = await runIn("running");
      return { page: `/runs/${runId}`, args: [formData({ runId })], effect: () => runStatus(runId) };
    },
    changed: (before, after) => {
      expect(before).toBe("running");
      expect(after).toBe("cancelled");
    },
  },
  {
    action: "resumeRun",
    policy: "run.resume",
    min: "runner",
    setUp: async () => {
      const runId = await runIn("failed");
      return { page: `/runs/${runId}`, args: [formData({ runId })], effect: () => runStatus(runId) };
    },
    changed: (before, after) => {
      expect(before).toBe("failed");
      expect(after).not.toBe("failed");
    },
  },
  {
    action: "rejudgeRun",
    policy: "run.rejudge",
    min: "runner",
    setUp: async () => {
      const runId = await runIn("completed");
      return {
        page: `/runs/${runId}`,
        args: [formData({ runId, which: "errored", confirm: "rejudge" })],
        effect: () => db.judgmentItem.count({ where: { runId, status: "error" } }),
      };
    },
    changed: (before, after) => {
      expect(before).toBeGreaterThan(0);
      expect(after).toBeLessThan(before as number);
    },
  },
  {
    action: "estimateRejudge",
    policy: "run.estimate",
    min: "runner",
    setUp: async () => {
      const runId = await runIn("completed");
      // It only reads; what it must not do is answer a role below runner (checked on the reply).
      return {
        page: `/runs/${runId}`,
        args: [{ runId, which: "errored", secondOpinion: false }],
        effect: async () => null,
      };
    },
    changed: (_before, _after, reply) => {
      expect(reply.body).toContain('"ok":true');
    },
  },
  {
    action: "updateRun",
    policy: "run.update",
    min: "admin",
    setUp: async () => {
      const runId = await runIn("failed", "name before");
      return {
        page: `/runs/${runId}`,
        args: [{ message: null, ok: false }, formData({ runId, name: "renamed by admin", tags: "a, b" })],
        effect: async () => (await db.run.findUnique({ where: { id: runId } }))?.name,
      };
    },
    changed: (before, after) => {
      expect(before).toBe("name before");
      expect(after).toBe("renamed by admin");
    },
  },
  {
    action: "deleteRun",
    policy: "run.delete",
    min: "admin",
    setUp: async () => {
      const runId = await runIn("failed");
      return {
        page: `/runs/${runId}`,
        args: [formData({ runId, confirm: "delete" })],
        effect: () => db.run.count({ where: { id: runId } }),
      };
    },
    changed: (before, after) => {
      expect(before).toBe(1);
      expect(after).toBe(0);
    },
  },
  {
    action: "renameDataset",
    policy: "dataset.rename",
    min: "admin",
    setUp: async () => ({
      page: `/datasets/${sampleId}`,
      args: [{ message: null, ok: false }, formData({ datasetId: sampleId, name: "renamed sample" })],
      effect: async () => (await db.dataset.findUnique({ where: { id: sampleId } }))?.name,
    }),
    changed: (_before, after) => expect(after).toBe("renamed sample"),
  },
  {
    action: "setUserRole",
    policy: "users.manage",
    min: "admin",
    setUp: async () => {
      const olga = await db.user.findFirstOrThrow({ where: { email: OTHER_USER.email } });
      return {
        page: "/admin/users",
        args: [{ ok: false, message: null }, formData({ userId: olga.id, role: "runner" })],
        effect: async () => (await db.user.findUnique({ where: { id: olga.id } }))?.role,
      };
    },
    changed: (before, after) => {
      expect(before).toBe("viewer");
      expect(after).toBe("runner");
    },
  },
  {
    action: "setSignUpEnabled",
    policy: "settings.manage",
    min: "admin",
    setUp: async () => ({
      page: "/admin/users",
      args: [{ ok: false, message: null }, formData({ signUp: "on" })],
      effect: async () => (await db.setting.findUnique({ where: { key: "signUpEnabled" } }))?.value ?? null,
    }),
    changed: (before, after) => expect(after).not.toEqual(before),
  },
  {
    action: "setAllowedEmailDomains",
    policy: "settings.manage",
    min: "admin",
    setUp: async () => ({
      page: "/admin/users",
      args: [{ ok: false, message: null }, formData({ domains: "example.com" })],
      effect: async () => (await db.setting.findUnique({ where: { key: "allowedEmailDomains" } }))?.value ?? null,
    }),
    changed: (before, after) => {
      expect(before).toBeNull();
      expect(after).toBe('["example.com"]');
    },
  },
  {
    action: "createUser",
    policy: "users.manage",
    min: "admin",
    setUp: async () => ({
      page: "/admin/users",
      args: [
        { ok: false, message: null },
        formData({ email: "nina@example.com", name: "Nina New", role: "runner", password: "nina new password 1" }),
      ],
      effect: async () => (await db.user.findUnique({ where: { email: "nina@example.com" } }))?.role ?? null,
    }),
    changed: (before, after) => {
      expect(before).toBeNull();
      expect(after).toBe("runner");
    },
  },
  {
    action: "resetUserPassword",
    policy: "users.manage",
    min: "admin",
    setUp: async () => {
      const olga = await db.user.findFirstOrThrow({ where: { email: OTHER_USER.email } });
      return {
        page: "/admin/users",
        args: [{ ok: false, message: null }, formData({ userId: olga.id, password: "olga's reset password" })],
        effect: async () =>
          (await db.account.findFirst({ where: { userId: olga.id, providerId: "credential" } }))?.password ?? null,
      };
    },
    changed: (before, after) => {
      expect(before).toEqual(expect.any(String));
      expect(after).toEqual(expect.any(String));
      expect(after).not.toBe(before);
    },
  },
  {
    action: "removeUser",
    policy: "users.manage",
    min: "admin",
    setUp: async () => {
      const user = await db.user.create({
        data: { id: "matrix-removable-user", name: "Rex Removable", email: "rex@example.com", role: "viewer" },
      });
      return {
        page: "/admin/users",
        args: [{ ok: false, message: null }, formData({ userId: user.id, confirm: user.email })],
        effect: () => db.user.count({ where: { id: user.id } }),
      };
    },
    changed: (before, after) => {
      expect(before).toBe(1);
      expect(after).toBe(0);
    },
  },
  {
    action: "saveLabel",
    policy: "labels.write",
    min: "runner",
    setUp: async () => {
      const runId = await runIn("completed");
      const row = await db.datasetRow.findFirstOrThrow({ where: { datasetId: sampleId } });
      const metric = "response/llm_judged/safety";
      return {
        page: `/runs/${runId}/rows/${row.id}`,
        args: [
          { ok: false, message: null },
          formData({ runId, datasetId: sampleId, rowId: row.id, metric, value: "yes" }),
        ],
        effect: () => db.humanLabel.count({ where: { rowId: row.id, metric } }),
      };
    },
    changed: (before, after, reply) => {
      expect(before).toBe(0);
      expect(after).toBe(1);
      expect(reply.body).toContain("Saved.");
    },
  },
  {
    // The runner raises the budget of a run of their own; another user's run is the test after the matrix.
    action: "raiseRunBudget",
    policy: "run.resume",
    min: "runner",
    setUp: async () => {
      const runId = await budgetPausedRunOf(USERS.runner.email);
      return {
        page: `/runs/${runId}`,
        args: [{ message: null }, formData({ runId, budgetCalls: "1000" })],
        effect: () => budgetCallsOf(runId),
      };
    },
    changed: (before, after) => {
      expect(before).toBe(1);
      expect(after).toBe(1000);
    },
  },
  {
    // Last among the actions: it deletes the sample dataset and its runs.
    action: "deleteDataset",
    policy: "dataset.delete",
    min: "admin",
    setUp: async () => {
      // A run in progress blocks deletion (the action says so); end those so the admin's try can succeed.
      await db.run.updateMany({
        where: { datasetId: sampleId, status: { in: ["running", "pending"] } },
        data: { status: "cancelled" },
      });
      const total = await db.run.count({ where: { datasetId: sampleId } });
      return {
        page: `/datasets/${sampleId}`,
        args: [{ message: null }, formData({ datasetId: sampleId, confirm: "delete", runCount: String(total) })],
        effect: () => db.dataset.count({ where: { id: sampleId } }),
      };
    },
    changed: (before, after) => {
      expect(before).toBe(1);
      expect(after).toBe(0);
    },
  },
];

// Before the matrix below, whose last action deletes the sample dataset these runs are on.
describe("a run's budget belongs to its creator", () => {
  it("raiseRunBudget: a runner is refused on another user's run, with the creator named; an admin raises it", async () => {
    const id = actionIds.get("raiseRunBudget") ?? "";
    const runId = await budgetPausedRunOf(OTHER_USER.email);
    const args = (calls: string) => [{ message: null }, formData({ runId, budgetCalls: calls })];
    const byRunner = await callAction(server.baseUrl, `/runs/${runId}`, id, args("500"), { cookie: cookies.runner });
    record("action raiseRunBudget, another's run", "runner", byRunner.status);
    expect(byRunner.body).toContain(
      "Only the run's creator (Olga Other <olga@example.com>) or an admin can change its budget.",
    );
    expect(await budgetCallsOf(runId)).toBe(1);
    expect(await runStatus(runId)).toBe("paused");
    // Clearing the limit (an empty field) is a change too, and refused the same way.
    const cleared = await callAction(server.baseUrl, `/runs/${runId}`, id, args(""), { cookie: cookies.runner });
    expect(cleared.body).toContain("Only the run's creator (Olga Other <olga@example.com>) or an admin");
    expect(await budgetCallsOf(runId)).toBe(1);

    const byAdmin = await callAction(server.baseUrl, `/runs/${runId}`, id, args("500"), { cookie: cookies.admin });
    record("action raiseRunBudget, another's run", "admin", byAdmin.status);
    expect(byAdmin.body).not.toContain("Only the run's creator");
    expect(await budgetCallsOf(runId)).toBe(500);
    expect(await runStatus(runId)).not.toBe("paused");
  });
});

describe("server actions, by role", () => {
  for (const test of ACTIONS) {
    it(`${test.action}: refused without a session, below ${test.min}, and cross-site; done by ${test.min}`, async () => {
      const id = actionIds.get(test.action);
      expect(id, `${test.action} is in the build's server-reference-manifest`).toBeDefined();
      const { page, args, effect } = await test.setUp();
      const before = await effect();
      const { refused, allowed } = attemptsFor(test.min);
      // An admin's API key: keys are for /api/v1 and CI, where they leak; a server action is the browser's.
      refused.push({ who: "admin API key", authorization: `Bearer ${adminKey}` });
      for (const attempt of refused) {
        const logged = server.output().length;
        const reply = await callAction(server.baseUrl, page, id ?? "", args, attempt);
        record(`action ${test.action}`, attempt.who, reply.status);
        expect(await effect(), `${test.action} as ${attempt.who} changed nothing`).toEqual(before);
        expect(reply.body).not.toContain('"ok":true');
        // Refused for the right reason: the guard's message comes back (actions that answer a state) or is
        // thrown and logged (void form actions); a cross-site post never reaches the action (proxy.ts refuses it
        // before Next's own origin check would).
        const reason =
          attempt.who === "cross-site"
            ? "Cross-site request refused"
            : attempt.who === "no session"
              ? `Sign in to ${describeAction(test.policy)}`
              : attempt.who === "admin API key"
                ? KEY_NOT_ACCEPTED_MESSAGE
                : `Your role (${attempt.who}) cannot ${describeAction(test.policy)}`;
        await expect.poll(() => reply.body + server.output().slice(logged), { timeout: 3_000 }).toContain(reason);
      }
      const reply = await callAction(server.baseUrl, page, id ?? "", args, allowed);
      record(`action ${test.action}`, allowed.who, reply.status);
      test.changed(before, await effect(), reply);
    });
  }
});

type Reply = { status: number; body: string; location: string | null };

/** A request as a browser page would send it: same-origin unless the attempt says otherwise; redirects not followed. */
async function send(path: string, attempt: Attempt, init: { method?: string; body?: string; type?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) {
    headers["content-type"] = init.type ?? "text/plain";
    headers.origin = attempt.origin ?? server.baseUrl;
    headers["sec-fetch-site"] = attempt.fetchSite ?? "same-origin";
  }
  if (attempt.cookie) headers.cookie = attempt.cookie;
  if (attempt.authorization) headers.authorization = attempt.authorization;
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers,
    body: init.body,
    redirect: "manual",
  });
  const reply: Reply = {
    status: response.status,
    body: await response.text(),
    location: response.headers.get("location"),
  };
  return reply;
}

/** What each refused try must answer: 401 without a session, 403 for a weaker role or another site. */
function refusedStatus(who: string): number {
  return who === "no session" || who === "admin API key" ? 401 : 403;
}

describe("route handlers that change state, by role", () => {
  let uploadedId: string;

  it("POST /api/datasets/upload: 401 without a session, 403 for a viewer and cross-site; a runner uploads", async () => {
    const file = toJsonl([
      { request_id: "m1", request: "Is versioning on by default?", response: "No." },
      { request_id: "m2", request: "How long do deleted objects stay?", response: "7 days." },
    ]);
    const path = "/api/datasets/upload?filename=matrix.jsonl&name=matrix%20upload";
    const datasets = () => db.dataset.count();
    const before = await datasets();
    const { refused, allowed } = attemptsFor("runner");
    for (const attempt of refused) {
      const reply = await send(path, attempt, { body: file });
      record("POST /api/datasets/upload", attempt.who, reply.status);
      expect(reply.status, `${attempt.who}: ${reply.body}`).toBe(refusedStatus(attempt.who));
      expect(await datasets()).toBe(before);
    }
    const reply = await send(path, allowed, { body: file });
    record("POST /api/datasets/upload", allowed.who, reply.status);
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('"ok":true');
    const made = await db.dataset.findFirstOrThrow({ where: { name: "matrix upload" } });
    const rita = await db.user.findFirstOrThrow({ where: { email: USERS.runner.email } });
    expect(made.createdById).toBe(rita.id);
    uploadedId = made.id;
  });

  it("POST /api/datasets/:id/labels: 401 without a session, 403 for a viewer and cross-site; a runner imports", async () => {
    // The file names someone else: with sign-in on, the label is the runner's and the file's name is kept as stated by.
    const file =
      "request_id,metric,chunk_position,label,labelled_by,labelled_at\nm1,groundedness,,yes,mallory@example.com,\n";
    const path = `/api/datasets/${uploadedId}/labels`;
    const labels = () => db.humanLabel.count();
    const { refused, allowed } = attemptsFor("runner");
    for (const attempt of refused) {
      const reply = await send(path, attempt, { body: file, type: "text/csv" });
      record("POST /api/datasets/:id/labels", attempt.who, reply.status);
      expect(reply.status, `${attempt.who}: ${reply.body}`).toBe(refusedStatus(attempt.who));
      expect(await labels()).toBe(0);
    }
    const reply = await send(path, allowed, { body: file, type: "text/csv" });
    record("POST /api/datasets/:id/labels", allowed.who, reply.status);
    expect(reply.status, reply.body).toBe(200);
    expect(await labels()).toBe(1);
    expect(await db.humanLabel.findFirstOrThrow()).toMatchObject({
      labelledBy: USERS.runner.email,
      statedBy: "mallory@example.com",
    });
  });

  it("POST /api/auth/admin/create-user (Better Auth's admin API): refused below admin and cross-site", async () => {
    const body = (email: string) =>
      JSON.stringify({ email, password: "a new password 1234", name: "New", role: "viewer" });
    const users = () => db.user.count();
    const before = await users();
    const { refused, allowed } = attemptsFor("admin");
    // Better Auth makes no session from an API key (the plugin's enableSessionForAPIKeys is off): an admin's key
    // reaches its admin API as no one.
    refused.push({ who: "admin API key", authorization: `Bearer ${adminKey}` });
    for (const attempt of refused) {
      const reply = await send("/api/auth/admin/create-user", attempt, {
        body: body(`new-${attempt.who.replace(/\W/g, "")}@example.com`),
        type: "application/json",
      });
      record("POST /api/auth/admin/create-user", attempt.who, reply.status);
      expect(reply.status, `${attempt.who}: ${reply.body}`).toBe(refusedStatus(attempt.who));
      expect(await users()).toBe(before);
    }
    const reply = await send("/api/auth/admin/create-user", allowed, {
      body: body("new-by-admin@example.com"),
      type: "application/json",
    });
    record("POST /api/auth/admin/create-user", allowed.who, reply.status);
    expect(reply.status, reply.body).toBe(200);
    expect(await users()).toBe(before + 1);
  });

  it("reads (exports, progress, label export): 401 without a session, allowed to a viewer", async () => {
    const runId = await runIn("failed", "read run", uploadedId);
    for (const path of [
      `/runs/${runId}/export?format=csv`,
      `/compare/export?runs=${runId},${runId}`,
      `/api/runs/${runId}/progress`,
      `/api/datasets/${uploadedId}/labels?format=csv`,
    ]) {
      const signedOut = await send(path, { who: "no session" });
      const viewer = await send(path, { who: "viewer", cookie: cookies.viewer });
      record(
        `GET ${path.split("?")[0].replace(runId, ":id").replace(uploadedId, ":id")}`,
        "no session",
        signedOut.status,
      );
      record(`GET ${path.split("?")[0].replace(runId, ":id").replace(uploadedId, ":id")}`, "viewer", viewer.status);
      expect(signedOut.status, path).toBe(401);
      expect(signedOut.body).not.toContain("read run");
      expect(viewer.status, `${path}: ${viewer.body.slice(0, 200)}`).toBe(200);
    }
  });

  it("pages: signed out, sent to /signin without the names in the answer; a viewer is sent away from pages above viewer", async () => {
    const runId = await runIn("failed", "secret run name", uploadedId);
    for (const path of [`/datasets`, `/datasets/${uploadedId}`, `/runs`, `/runs/${runId}`, `/compare`]) {
      const reply = await send(path, { who: "no session" });
      expect(reply.status, path).toBe(307);
      expect(reply.location).toContain(`/signin?next=${encodeURIComponent(path)}`);
      expect(reply.body).not.toContain("secret run name");
      expect(reply.body).not.toContain("matrix upload");
    }
    for (const [path, action] of [
      [`/datasets/${uploadedId}/runs/new`, "run.start"],
      ["/admin/users", "users.manage"],
    ]) {
      const reply = await send(path, { who: "viewer", cookie: cookies.viewer });
      record(`GET ${path.replace(uploadedId, ":id")} (page)`, "viewer", reply.status);
      expect(reply.status, path).toBe(307);
      expect(reply.location).toContain(`denied=${encodeURIComponent(action)}`);
    }
    const allowed = await send(`/datasets/${uploadedId}/runs/new`, { who: "runner", cookie: cookies.runner });
    expect(allowed.status).toBe(200);
  });
});
