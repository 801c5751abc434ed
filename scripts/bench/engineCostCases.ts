// The measuring half of bench:engine (engineCostBench.ts): a process run under /usr/bin/time and sampled
// through /proc while it runs, the window of a run in which every call is waiting on the model, and a CPU
// profile's self time mapped back to the TypeScript it came from.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { SourceMap, type SourceMapping } from "node:module";
import path from "node:path";
import { z } from "zod";

/** What one process cost: CPU is user + system of it and anything it waited for, as rusage counts it. */
export type Measured = { code: number | null; stdout: string; cpuMs: number; peakRssMb: number; wallS: number };

export type MeasuredProcess = {
  /** The measured node process itself (the child of /usr/bin/time): what a sampler reads and a stop signals. */
  pid: number;
  exited: Promise<Measured>;
  stop: () => void;
};

/** Every measured process not yet exited: killed with the benchmark, or a worker would outlive it, polling. */
const liveProcesses = new Set<number>();

export function killLiveProcesses(): void {
  for (const pid of liveProcesses) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/**
 * Starts `node args…` (as production) under /usr/bin/time: rusage from the kernel is the one figure that includes the
 * process's last moments (its exit, after the last /proc read could see it) and any child it started.
 */
export async function startMeasured(
  args: string[],
  env: Record<string, string>,
  timeFile: string,
): Promise<MeasuredProcess> {
  const child = spawn("/usr/bin/time", ["-o", timeFile, "-f", "%U %S %M %e", process.execPath, ...args], {
    env: { ...env, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let stdout = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
  const pid = await childPidOf(child.pid ?? 0);
  liveProcesses.add(pid);
  const exited = closed.then((code) => {
    liveProcesses.delete(pid);
    // time writes "Command exited with non-zero status N" before the format line when there is one.
    const last = fs.readFileSync(timeFile, "utf8").trim().split("\n").at(-1) ?? "";
    const [user, system, maxRssKb, wall] = last.split(" ").map(Number);
    return { code, stdout, cpuMs: (user + system) * 1000, peakRssMb: maxRssKb / 1024, wallS: wall };
  });
  return { pid, exited, stop: () => process.kill(pid, "SIGTERM") };
}

async function childPidOf(parent: number): Promise<number> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    try {
      const first = fs.readFileSync(`/proc/${parent}/task/${parent}/children`, "utf8").trim().split(/\s+/)[0];
      if (first) return Number(first);
    } catch {
      // time has not started yet, or has already finished
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`/usr/bin/time (${parent}) started no process`);
}

/** One look at a running process: the fake server's request count beside the process's CPU so far. */
export type IdleSample = { atMs: number; requests: number; cpuNs: number; threads: string };

/**
 * CPU time of every thread of `pid`, in ns, from schedstat: /proc/<pid>/stat counts 10 ms ticks, too
 * coarse for a 100 ms interval of a process that should be using 2 ms of it.
 */
export function threadCpuNs(pid: number): { cpuNs: number; threads: string } {
  const tids = fs.readdirSync(`/proc/${pid}/task`).sort();
  let cpuNs = 0;
  for (const tid of tids) {
    try {
      cpuNs += Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return { cpuNs, threads: tids.join(",") };
}

/**
 * CPU in cores over the intervals in which all `slots` calls were waiting on the model: no call went out
 * in the interval or the one before it (so no answer is still being handled), none was due back (nothing
 * had gone out a latency earlier), and `slots` calls had gone out within the last latency. The requests
 * are the fake server's count, so a call is "out" once the server has read it. null when no interval was.
 */
export function idleCpuCores(
  samples: IdleSample[],
  latencyMs: number,
  slots: number,
): { cores: number; seconds: number } | null {
  let cpuNs = 0;
  let wallMs = 0;
  for (let i = 2; i < samples.length; i++) {
    const [twoBack, previous, current] = [samples[i - 2], samples[i - 1], samples[i]];
    if (current.requests !== twoBack.requests || current.threads !== previous.threads) continue;
    const sentBefore = samples.findLast((s) => s.atMs <= twoBack.atMs - latencyMs);
    const sentAfter = samples.find((s) => s.atMs >= current.atMs - latencyMs);
    if (!sentBefore || !sentAfter || sentBefore.requests !== sentAfter.requests) continue;
    if (current.requests - sentBefore.requests < slots) continue;
    cpuNs += current.cpuNs - previous.cpuNs;
    wallMs += current.atMs - previous.atMs;
  }
  return wallMs > 0 ? { cores: cpuNs / 1e6 / wallMs, seconds: wallMs / 1000 } : null;
}

const cpuProfileSchema = z.object({
  nodes: z.array(
    z.object({
      id: z.number(),
      callFrame: z.object({
        functionName: z.string(),
        url: z.string(),
        lineNumber: z.number(),
        columnNumber: z.number(),
      }),
    }),
  ),
  samples: z.array(z.number()),
  timeDeltas: z.array(z.number()),
});

const sourceMapSchema = z.object({
  version: z.number(),
  sources: z.array(z.string()),
  names: z.array(z.string()),
  mappings: z.string(),
  sourcesContent: z.array(z.string()).optional(),
  sourceRoot: z.string().optional(),
});

export type SelfTime = { where: string; ms: number };

/**
 * Self time per function in a .cpuprofile (V8's idle samples left out), largest first, with the total.
 * A function in `bundle` is named by its place in the TypeScript source, through the bundle's source map.
 */
export function selfTimes(profileFile: string, root: string, bundle: string): { total: number; top: SelfTime[] } {
  const profile = cpuProfileSchema.parse(JSON.parse(fs.readFileSync(profileFile, "utf8")));
  const map = fs.existsSync(`${bundle}.map`)
    ? new SourceMap({
        file: bundle,
        sourceRoot: "",
        sourcesContent: [],
        ...sourceMapSchema.parse(JSON.parse(fs.readFileSync(`${bundle}.map`, "utf8"))),
      })
    : null;
  const bundleUrl = `file://${bundle}`;
  const placeOf = new Map<number, string>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const name = functionName || "(anonymous)";
    const origin = url === bundleUrl && map ? map.findEntry(lineNumber, columnNumber) : {};
    const place =
      "originalSource" in origin
        ? `${path.relative(root, path.resolve(path.dirname(bundle), (origin as SourceMapping).originalSource))}:${(origin as SourceMapping).originalLine + 1}`
        : url
          ? `${url.replace(`file://${root}/`, "")}:${lineNumber + 1}`
          : "";
    placeOf.set(node.id, place ? `${name}  ${place}` : name);
  }
  const msOf = new Map<string, number>();
  let total = 0;
  // A sample lasts until the next one: timeDeltas[i + 1] is sample i's share of the time.
  profile.samples.forEach((nodeId, i) => {
    const where = placeOf.get(nodeId) ?? "?";
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (where === "(idle)") return;
    total += ms;
    msOf.set(where, (msOf.get(where) ?? 0) + ms);
  });
  const top = [...msOf].map(([where, ms]) => ({ where, ms })).sort((a, b) => b.ms - a.ms);
  return { total, top };
}

/** Self time summed by where the code lives: its first two path segments (lib/engine, node_modules/openai). */
export function selfTimeByArea(top: SelfTime[]): SelfTime[] {
  const msOf = new Map<string, number>();
  for (const { where, ms } of top) {
    const place = where.split("  ")[1] ?? "";
    const area = place.startsWith("node:")
      ? "node: (Node's own modules)"
      : place
        ? place
            .split("/")
            .slice(0, place.startsWith("node_modules/@") ? 3 : 2)
            .join("/")
            .replace(/:\d+$/, "")
        : where;
    msOf.set(area, (msOf.get(area) ?? 0) + ms);
  }
  return [...msOf].map(([where, ms]) => ({ where, ms })).sort((a, b) => b.ms - a.ms);
}
