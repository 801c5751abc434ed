import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { spawnEval } from "../support/spawnEval";

/**
 * The tool-call metrics end to end: a 22-case fixture (tests/fixtures/agent/tool-call-cases.jsonl) with each
 * upstream quirk the research notes name, uploaded and judged by the real CLI three times (the upstream
 * defaults; ordered with arguments; DeepEval's exact match), each value read from the CLI's JSON export.
 * Every expected value below was worked out by hand from the definitions (DeepEval's ToolCorrectnessMetric,
 * MLflow's ToolCallCorrectness exact mode, DeepEval's tool repetition), not taken from a run.
 */
const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/agent/tool-call-cases.jsonl");
const EXACT = "agent/ground_truth/tool_call_exact_match";
const CORRECTNESS = "agent/ground_truth/tool_correctness";
const LOOPS = "agent/trajectory/no_tool_loops";
const COUNT = "agent/tool_call_count";
const SKIP = null;

/**
 * request_id → [DeepEval default, MLflow unordered, DeepEval ordered + input_parameters, MLflow ordered,
 * DeepEval should_exact_match, no loops, tool calls]. null: the row is skipped for that metric.
 */
const EXPECTED: Record<
  string,
  [number | null, string | null, number | null, string | null, number | null, string | null, number | null]
> = {
  // Extra calls cost nothing: 1/1 expected found. MLflow: 2 calls against 1 expected is "no".
  t01: [1, "no", 1, "no", 0, "yes", 2],
  // lookup({"id": 1}) three times: a loop (DeepEval's repetition threshold 3).
  t02: [1, "no", 1, "no", 0, "no", 4],
  // The second expected search finds the second call "already matched" (equal to the first): 1/2. MLflow's
  // sets are equal; the ordered LCS has no such set, 2/2.
  t03: [0.5, "yes", 1, "yes", 1, "yes", 2],
  // Different arguments: no under-count.
  t04: [1, "yes", 1, "yes", 1, "yes", 2],
  // Expected [S, F, S], called [S, S, F]: unordered, the third expected S finds the second call equal to the
  // matched first: 2/3; ordered, the longest common subsequence is 2: 2/3. MLflow: same sets, but not in order.
  t05: [2 / 3, "yes", 2 / 3, "no", 0, "yes", 3],
  // {"q": "mlflow", "k": 3} vs k 5: q is 1 of the 2 keys: 0.5.
  t06: [1, "no", 0.5, "no", 1, "yes", 1],
  // seats equal (1/2) + flight half equal (from, not to: 0.5 / 2): 0.75.
  t07: [1, "no", 0.75, "no", 1, "yes", 1],
  t08: [0, "no", 0, "no", 0, "yes", 0],
  // expected_tool_calls: [] reads as none (MLflow): the metrics against it skip the row.
  t09: [SKIP, SKIP, SKIP, SKIP, SKIP, "yes", 0],
  t10: [0, "no", 0, "no", 0, "yes", 1],
  // Expected [A, A, B], called [A, B, B]: DeepEval 2/3 either way; MLflow's sets {A, B} are equal (unordered).
  t11: [2 / 3, "yes", 2 / 3, "no", 0, "yes", 3],
  // Right tools, wrong order: ordered LCS 1 of 2.
  t12: [1, "yes", 0.5, "no", 0, "yes", 2],
  // A bare expected name: MLflow compares names; DeepEval with input_parameters compares {} with {"q": …}: 0.
  t13: [1, "yes", 0, "yes", 1, "yes", 1],
  // One expected call without arguments: MLflow compares names only for the whole row.
  t14: [1, "yes", 0, "yes", 1, "yes", 2],
  // poll({"id": 7}) six times.
  t15: [1, "no", 1, "no", 0, "no", 6],
  // search({"q": "a"}) three times, not in a row.
  t16: [1, "no", 1, "no", 0, "no", 5],
  t17: [1, "yes", 1, "yes", 1, "yes", 1],
  // MLflow 3 trace: fetch started before search though listed after it.
  t18: [1, "yes", 1, "yes", 1, "yes", 2],
  // MLflow 2 trace, the call failed: still the call that was made.
  t19: [1, "yes", 1, "yes", 1, "yes", 1],
  // The chat model asked for search, but no TOOL span ran it: no call.
  t20: [0, "no", 0, "no", 0, "yes", 0],
  // No trace, no tool_calls: nothing to judge.
  t21: [SKIP, SKIP, SKIP, SKIP, SKIP, SKIP, SKIP],
  t22: [1, "yes", 1, "yes", 1, "yes", 1],
};

const exportSchema = z.object({
  run: z.object({ id: z.string(), settings: z.object({ tool_calls: z.unknown() }) }),
  rows: z.array(z.record(z.string(), z.unknown())),
});

describe("npm run eval --judges agent on tool calls", () => {
  let dir: string;
  const runs: Record<string, Map<string, Record<string, unknown>>> = {};
  const settings: Record<string, unknown> = {};

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "assay-tool-calls-"));
    const url = `file:${path.join(dir, "tools.db")}`;
    const variants: Record<string, string[]> = {
      defaults: [],
      ordered: ["--tool-ordering", "--tool-params", "input_parameters"],
      exact: ["--tool-exact-match"],
    };
    for (const [name, flags] of Object.entries(variants)) {
      const out = path.join(dir, `${name}.json`);
      const { code, stderr } = await spawnEval(
        [
          "--dataset",
          FIXTURE,
          "--judges",
          "tool_call_exact_match,tool_correctness,no_tool_loops,tool_call_count",
          "--judge-model",
          "heuristic",
          "--quiet",
          ...flags,
          "--out",
          out,
        ],
        { DATABASE_URL: url },
      ).done;
      expect(code, stderr).toBe(0);
      const parsed = exportSchema.parse(JSON.parse(fs.readFileSync(out, "utf8")));
      runs[name] = new Map(parsed.rows.map((row) => [String(row.request_id), row]));
      settings[name] = parsed.run.settings.tool_calls;
    }
  }, 180_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const cases = Object.entries(EXPECTED);

  it.each(cases)("%s: DeepEval's tool_correctness and MLflow's exact match, as defined", (requestId, values) => {
    const [deDefault, mlUnordered, deOrdered, mlOrdered, deExact] = values;
    const at = (run: string) => runs[run].get(requestId) ?? {};
    expectScore(at("defaults")[`${CORRECTNESS}/score`], deDefault);
    expect(at("defaults")[`${EXACT}/rating`]).toBe(mlUnordered);
    expectScore(at("ordered")[`${CORRECTNESS}/score`], deOrdered);
    expect(at("ordered")[`${EXACT}/rating`]).toBe(mlOrdered);
    expectScore(at("exact")[`${CORRECTNESS}/score`], deExact);
    if (deDefault === SKIP) expect(at("defaults")[`${CORRECTNESS}/skip_reason`]).toMatch(/^needs /);
  });

  it.each(cases)("%s: loops and the number of calls", (requestId, values) => {
    const [, , , , , loops, count] = values;
    const row = runs.defaults.get(requestId) ?? {};
    expect(row[`${LOOPS}/rating`]).toBe(loops);
    expect(row[COUNT]).toBe(count);
  });

  it("names the run's tool-call settings in the export, by the upstream names", () => {
    expect(settings.defaults).toEqual({
      should_consider_ordering: false,
      evaluation_params: [],
      should_exact_match: false,
    });
    expect(settings.ordered).toEqual({
      should_consider_ordering: true,
      evaluation_params: ["input_parameters"],
      should_exact_match: false,
    });
    expect(settings.exact).toMatchObject({ should_exact_match: true });
  });

  it("says why a row is skipped, and a DeepEval score passes at its threshold", () => {
    expect(runs.defaults.get("t21")?.[`${LOOPS}/skip_reason`]).toContain("the agent's tool calls");
    expect(runs.defaults.get("t09")?.[`${EXACT}/skip_reason`]).toContain("expected_tool_calls");
    expect(runs.defaults.get("t03")?.[`${CORRECTNESS}/success`]).toBe(true);
    expect(runs.defaults.get("t08")?.[`${CORRECTNESS}/success`]).toBe(false);
    expect(String(runs.defaults.get("t02")?.[`${LOOPS}/rationale`])).toContain('lookup({"id": 1}) called 3 times');
  });
});

function expectScore(actual: unknown, expected: number | null): void {
  if (expected === null) expect(actual).toBeNull();
  else expect(actual).toBeCloseTo(expected, 6);
}
