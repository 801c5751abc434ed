import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { listRecentWorkers } from "@/lib/db/work/workers";
import { workerTimeoutMs } from "@/lib/engine/worker/workerSettings";
import { defineApiRoute } from "../defineApiRoute";

const workerSchema = z
  .object({
    id: z.string(),
    kind: z.enum(["web", "web-align", "worker", "cli"]).meta({
      description: "web-align: a web server with ASSAY_WEB_WORKER=0, judging no run but making the Align page's calls",
    }),
    host: z.string(),
    pid: z.number().int(),
    version: z.string(),
    startedAt: z.iso.datetime({ offset: true }),
    heartbeatAgeMs: z.number().int().meta({ description: "Since its last heartbeat, by the store's clock" }),
    runId: z.string().nullable().meta({ description: "The run it is judging now" }),
    runName: z.string().nullable(),
    inFlight: z.number().int().meta({ description: "LLM calls it has in flight" }),
    slotsHeld: z.number().int().meta({
      description:
        "The endpoint's shared in-flight slots it holds; a silent worker's are freed after the slot timeout (a quarter of timeoutMs, 3 s to timeoutMs)",
    }),
    completed: z.number().int().meta({ description: "Judgments and generations it has written since it started" }),
    state: z.enum(["live", "gone", "stopped"]).meta({
      description:
        "gone: no heartbeat within the timeout (its work is handed to the others); stopped: it stopped cleanly",
    }),
  })
  .meta({ id: "Worker" });

/** The judging processes seen within the last hour (web servers, `npm run worker`, the CLI), as the runs page shows them. */
export const listWorkersRoute = defineApiRoute(
  {
    method: "get",
    path: "/api/v1/workers",
    operationId: "listWorkers",
    summary: "The judging processes seen within the last hour, live ones first",
    tag: "Workers",
    action: "data.read",
    response: z.object({ workers: z.array(workerSchema), timeoutMs: z.number().int() }).meta({ id: "WorkerList" }),
  },
  async () => {
    const timeoutMs = workerTimeoutMs();
    const workers = await listRecentWorkers(getDb(), { timeoutMs, windowMs: 60 * 60 * 1000 });
    return {
      timeoutMs,
      workers: workers.map(({ startedAt, stopped, gone, ...worker }) => ({
        ...worker,
        heartbeatAgeMs: Math.round(worker.heartbeatAgeMs),
        startedAt: startedAt.toISOString(),
        state: stopped ? ("stopped" as const) : gone ? ("gone" as const) : ("live" as const),
      })),
    };
  },
);
