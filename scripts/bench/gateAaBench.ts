// npm run bench:gate-aa — the regression gate against noise alone, end to end. A fake OpenAI server answers
// every call at random (seeded per call: the same request asked twice gets two independent answers), so two
// runs of the same file differ in nothing real. For each of GATES (20) pairs, the CLI runs the file on the
// app's server with generated responses and every judge it allows ("main"), then runs it again as a CI build
// with --baseline main, which gates with Holm's correction (the default), and the comparison of the same pair
// is asked again with correction=none and read by the gate's own decision (regressedMetrics). It prints how
// many gates exited 0 with the correction, and how many would have without it; and the same counting only the
// judged metrics, since latency and tokens are measured, not judged: the second run of a pair can really be a
// few milliseconds slower (a warmer or busier server), which no correction should call noise.
//
// Builds the app first (BENCH_SKIP_BUILD=1 reuses .next); AA_ROWS (default 100) rows a run.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { comparisonSchema } from "../../lib/api/compareSchemas";
import { regressedMetrics } from "../../lib/cli/regressionGate";
import { startFakeOpenAIServer } from "../../tests/support/fakeOpenAIServer";
import { fakeRandomResponder } from "../../tests/support/fakeRandomResponder";
import { startServerForBench } from "./startServerForBench";

const GATES = Number(process.env.AA_GATES ?? 20);
const ROWS = Number(process.env.AA_ROWS ?? 100);

/** A file of requests with expected answers and retrieved chunks, so every judge has its inputs. */
function datasetFile(dir: string): string {
  const lines = Array.from({ length: ROWS }, (_, i) =>
    JSON.stringify({
      request_id: `q${i + 1}`,
      request: `What does section ${i + 1} of the handbook say about leave?`,
      expected_response: `Section ${i + 1} allows ${i % 20} days of leave.`,
      retrieved_context: [
        { doc_uri: `handbook#${i + 1}`, content: `Section ${i + 1}: staff may take ${i % 20} days of leave.` },
        { doc_uri: `handbook#${i + 2}`, content: `Section ${i + 2}: the canteen opens at ${8 + (i % 3)}.` },
      ],
    }),
  );
  const file = path.join(dir, "aa.jsonl");
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

/**
 * Runs the eval CLI as a user does (npm run eval), returning its exit code and the run id it printed. Spawned
 * without blocking: the fake OpenAI server answers from this process's event loop.
 */
async function evalCli(args: string[]): Promise<{ code: number; runId: string; output: string }> {
  const child = spawn(process.execPath, ["scripts/run-compiled.mjs", "scripts/eval.ts", ...args], {
    cwd: process.cwd(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (data) => (output += data));
  child.stderr.on("data", (data) => (output += data));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const runId = /^Run ([0-9a-f-]{36}) /m.exec(output)?.[1];
  if (!runId || code === null || code > 1)
    throw new Error(`the eval CLI failed (exit ${code}):\n${output.slice(-3000)}`);
  return { code, runId, output };
}

async function main(): Promise<void> {
  const fake = await startFakeOpenAIServer({
    responder: fakeRandomResponder(20261129),
    behaviour: { latencyMs: 0 },
    logRequests: false,
  });
  Object.assign(process.env, {
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: "sk-bench-fake-key-0000",
    ASSAY_JUDGE_MODEL: "fake-judge",
  });
  const server = await startServerForBench({ skipBuild: process.env.BENCH_SKIP_BUILD === "1" });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-gate-aa-"));
  try {
    const file = datasetFile(dir);
    const common = [
      "--server",
      server.baseUrl,
      "--dataset",
      file,
      "--generate-model",
      "fake-model",
      // Every judge and metric the file allows: Databricks', DeepEval's, Mastra's and the statistical scores.
      "--judges",
      "all,deepeval,mastra,statistical",
      "--quiet",
    ];
    let passedHolm = 0;
    let passedNone = 0;
    let judgedPassedHolm = 0;
    let judgedPassedNone = 0;
    const judged = (metric: string) => !metric.startsWith("agent/");
    const families: number[] = [];
    const noiseCalledReal = new Map<string, number>();
    for (let gate = 1; gate <= GATES; gate++) {
      const started = performance.now();
      const main = await evalCli([...common, "--name", `aa-${gate}-main`]);
      const build = await evalCli([...common, "--name", `aa-${gate}-build`, "--baseline", main.runId]);
      if (build.code === 0) passedHolm++;
      const query = new URLSearchParams({
        runs: `${main.runId},${build.runId}`,
        baseline: main.runId,
        correction: "none",
        flips: "0",
      });
      const response = await fetch(`${server.baseUrl}/api/v1/compare?${query}`);
      const uncorrected = comparisonSchema.parse(await response.json());
      const regressed = regressedMetrics(uncorrected, build.runId);
      if (regressed.length === 0) passedNone++;
      if (!regressed.some((s) => judged(s.metric))) judgedPassedNone++;
      const holmLines = build.output.split("\n").filter((text) => text.startsWith("REGRESSION"));
      if (!holmLines.some((line) => judged(line.replace(/^REGRESSION +/, "").split(":")[0]))) judgedPassedHolm++;
      for (const { metric } of regressed) noiseCalledReal.set(metric, (noiseCalledReal.get(metric) ?? 0) + 1);
      const family = uncorrected.statistics.find((s) => s.candidate_run_id === build.runId)?.family_size ?? 0;
      families.push(family);
      // What the gate called real, in its own words.
      for (const line of holmLines) console.log(`  holm: ${line}`);
      for (const statistic of regressed) console.log(`  none: ${statistic.metric}: ${statistic.words}`);
      console.log(
        `gate ${String(gate).padStart(2)}: ${family} metrics tested; holm exit ${build.code}; without correction ${regressed.length === 0 ? "exit 0" : `exit 1 (${regressed.map((s) => s.metric.split("/").pop()).join(", ")})`} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
    }
    console.log(`\n${fake.stats.totalRequests.toLocaleString("en-US")} LLM calls, every one answered at random`);
    if (noiseCalledReal.size > 0)
      console.log(
        `without correction, noise called a real regression on: ${[...noiseCalledReal].map(([metric, count]) => `${metric} ×${count}`).join(", ")}`,
      );
    console.log(
      `judged metrics only (not agent/ latency and tokens): ${judgedPassedHolm} of ${GATES} passed with Holm's correction, ${judgedPassedNone} of ${GATES} without it`,
    );
    console.log(
      `summary: ${GATES} A/A gates over ${Math.min(...families)}–${Math.max(...families)} metrics: ${passedHolm} of ${GATES} exited 0 with Holm's correction (the default), ${passedNone} of ${GATES} would have without it`,
    );
  } finally {
    server.stop();
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
