import type { ExpectedToolCall, ToolCall } from "@/lib/contract/toolCalls";
import { isPythonDict, pythonEquals } from "@/lib/metrics/toolCalls/pythonEquality";

/**
 * DeepEval's ToolCorrectnessMetric, the deterministic tool-calling score only (`_calculate_score`; the
 * LLM tool-selection score that runs with `available_tools` is not here, and without it DeepEval's selection
 * score is 1, so min(calling, selection) = calling). Transcribed from confident-ai/deepeval
 * `deepeval/metrics/tool_correctness/tool_correctness.py` @ 7e035ac052f6 and `deepeval/test_case/llm_test_case.py`
 * (ToolCall) @ 00eb82718700:
 * - precedence: should_exact_match, else should_consider_ordering (weighted LCS), else unordered;
 * - every path divides by len(expected_tools): extra calls are never penalised; both lists empty score 1,
 *   no expected tools but some called score 0;
 * - ToolCall `type` (FUNCTION/MCP) is not modelled: every call is FUNCTION, so names alone decide the pairing;
 * - strict_mode (score below threshold → 0) is the caller's, as for every metric.
 */

export type DeepEvalToolCallParam = "input_parameters" | "output";
export type DeepEvalToolCorrectnessOptions = {
  evaluationParams: DeepEvalToolCallParam[];
  shouldExactMatch: boolean;
  shouldConsiderOrdering: boolean;
};
/** Which called call (index into `called`) matched each expected one, and what it counted; null: a miss. */
export type ToolCallMatch = { expectedIndex: number; calledIndex: number | null; weight: number };
export type DeepEvalToolCorrectnessResult = { score: number; reason: string; matches: ToolCallMatch[] };
type Arguments = Record<string, unknown> | null;

/**
 * `_compare_dicts(dict1, dict2)`: 1.0 when equal (Python ==); otherwise, over the keys both have, 1/|union of
 * keys| for an equal value, or `_compare_dicts(v1, v2)/|union|` when both values are dicts (a list or a string
 * that differs counts 0). Added one term at a time, like Python's `+=`.
 * Departure: DeepEval calls `.keys()` on None and raises when one side's input_parameters is None and the
 * other a dict; Assay reads None as {} instead (so None vs {} is 1, None vs {"q": 1} is 0).
 * Python iterates the shared keys in a hash-seeded set order; here dict1's key order. Only the last bit of a
 * float sum can differ.
 */
export function deepEvalCompareDicts(dict1: Arguments, dict2: Arguments): number {
  const left = dict1 ?? {};
  const right = dict2 ?? {};
  if (pythonEquals(left, right)) return 1;
  const union = new Set([...Object.keys(left), ...Object.keys(right)]).size;
  let score = 0;
  for (const key of Object.keys(left)) {
    if (!Object.hasOwn(right, key)) continue;
    const [a, b] = [left[key], right[key]];
    if (pythonEquals(a, b)) score += 1 / union;
    else if (isPythonDict(a) && isPythonDict(b)) score += deepEvalCompareDicts(a, b) / union;
  }
  return score;
}

/** One same-named pair's weight: 1 × _compare_dicts with INPUT_PARAMETERS, 0 on an OUTPUT mismatch (`!=`). */
function pairWeight(expected: ExpectedToolCall, called: ToolCall, params: DeepEvalToolCallParam[]): number {
  let weight = 1;
  if (params.includes("input_parameters")) weight *= deepEvalCompareDicts(expected.arguments, called.arguments);
  if (params.includes("output") && !pythonEquals(expected.output, called.output)) weight = 0;
  return weight;
}

/** ToolCall.__eq__: name, input_parameters and output with Python ==; None params != {} (no None→{} here). */
function sameToolCall(a: ToolCall, b: ToolCall): boolean {
  return a.name === b.name && pythonEquals(a.arguments, b.arguments) && pythonEquals(a.output, b.output);
}

const round = (value: number): string => String(Number(value.toFixed(4)));
const names = (calls: { name: string }[]): string => calls.map((call) => call.name).join(", ");

/** Sentences for the review UI; the score over len(expected_tools) is spelled out. */
function describe(called: ToolCall[], expected: ExpectedToolCall[], matches: ToolCallMatch[], ordered: boolean) {
  const hit = matches.filter((match) => match.calledIndex !== null);
  const used = new Set(hit.map((match) => match.calledIndex));
  const unmatched = matches.filter((match) => match.calledIndex === null).map((match) => expected[match.expectedIndex]);
  const calledNames = new Set(called.map((call) => call.name));
  const missing = unmatched.filter((call) => !calledNames.has(call.name));
  const mismatched = unmatched.filter((call) => calledNames.has(call.name));
  const partial = hit.filter((match) => match.weight < 1);
  const extra = called.filter((_, index) => !used.has(index));
  const total = hit.reduce((sum, match) => sum + match.weight, 0);
  const parts = [
    `${hit.length} of ${expected.length} expected tools called${ordered ? " in order" : ""}` +
      (hit.length > 0 ? ` (${names(hit.map((match) => expected[match.expectedIndex]))})` : ""),
  ];
  if (partial.length > 0) {
    const list = partial.map((match) => `${expected[match.expectedIndex].name} ${round(match.weight)}`);
    parts.push(`partly matching: ${list.join(", ")}`);
  }
  if (missing.length > 0) parts.push(`missing: ${names(missing)}`);
  if (mismatched.length > 0) {
    const why = ordered
      ? "called, but out of order or with other arguments/output"
      : "called with other arguments/output";
    parts.push(`${why}: ${names(mismatched)}`);
  }
  if (extra.length > 0) parts.push(`extra calls, not penalised: ${names(extra)}`);
  return `${parts.join("; ")}. Score ${round(total)}/${expected.length}`;
}

function emptyCase(called: ToolCall[]): DeepEvalToolCorrectnessResult {
  if (called.length === 0) return { score: 1, reason: "No tools were expected and none were called.", matches: [] };
  const reason = `No tools were expected but ${called.length} were called (${names(called)}); DeepEval scores this 0.`;
  return { score: 0, reason, matches: [] };
}

/**
 * `_calculate_exact_match_score`: equal lengths, then position by position the same name, and with the
 * selected params `input_parameters != ` / `output != ` (Python; here None != {}): 1.0 or 0.0. Python stops at
 * the first mismatch; `matches` still reports every position (calledIndex null where that pair fails).
 */
function exactMatch(called: ToolCall[], expected: ExpectedToolCall[], params: DeepEvalToolCallParam[]) {
  if (called.length !== expected.length) {
    const reason = `Not an exact match: expected ${expected.length} calls (${names(expected)}), got ${called.length} (${names(called)}).`;
    return {
      score: 0,
      reason,
      matches: expected.map((_, index) => ({ expectedIndex: index, calledIndex: null, weight: 0 })),
    };
  }
  if (expected.length === 0) return emptyCase(called);
  const problems: string[] = [];
  const matches = expected.map((want, index): ToolCallMatch => {
    const got = called[index];
    const issue =
      got.name !== want.name
        ? `expected ${want.name}, called ${got.name}`
        : params.includes("input_parameters") && !pythonEquals(got.arguments, want.arguments)
          ? `${want.name} arguments differ`
          : params.includes("output") && !pythonEquals(got.output, want.output)
            ? `${want.name} output differs`
            : null;
    if (issue !== null) problems.push(`position ${index + 1}: ${issue}`);
    return { expectedIndex: index, calledIndex: issue === null ? index : null, weight: issue === null ? 1 : 0 };
  });
  if (problems.length === 0) {
    return { score: 1, reason: `Exact match: ${expected.length} calls match position by position.`, matches };
  }
  return { score: 0, reason: `Not an exact match: ${problems.join("; ")}.`, matches };
}

/**
 * `_compute_weighted_lcs`: dp over expected × called; a same-named pair adds its weight when > 0
 * (`dp[i-1][j-1] + score if score > 0 else 0`); the backtrack prefers up, then left, and sums
 * dp[i][j] - dp[i-1][j-1] on each diagonal step, as the source does (so float rounding matches too).
 */
function orderedMatch(called: ToolCall[], expected: ExpectedToolCall[], params: DeepEvalToolCallParam[]) {
  const [m, n] = [expected.length, called.length];
  const dp = Array.from({ length: m + 1 }, () => new Array<number>(n + 1).fill(0));
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= n; j++) {
      if (expected[i - 1].name !== called[j - 1].name) {
        dp[i][j] = Math.max(dp[i - 1][j], dp[i][j - 1]);
        continue;
      }
      const score = pairWeight(expected[i - 1], called[j - 1], params);
      dp[i][j] = Math.max(dp[i - 1][j], dp[i][j - 1], score > 0 ? dp[i - 1][j - 1] + score : 0);
    }
  }
  const matched = new Map<number, { calledIndex: number; weight: number }>();
  let [i, j, total] = [m, n, 0];
  while (i > 0 && j > 0) {
    if (dp[i][j] === dp[i - 1][j]) i -= 1;
    else if (dp[i][j] === dp[i][j - 1]) j -= 1;
    else {
      matched.set(i - 1, { calledIndex: j - 1, weight: dp[i][j] - dp[i - 1][j - 1] });
      total += dp[i][j] - dp[i - 1][j - 1];
      [i, j] = [i - 1, j - 1];
    }
  }
  const matches = expected.map((_, index) => {
    const found = matched.get(index);
    return { expectedIndex: index, calledIndex: found?.calledIndex ?? null, weight: found?.weight ?? 0 };
  });
  return { score: total / m, reason: describe(called, expected, matches, true), matches };
}

/**
 * `_calculate_non_exact_match_score`: for each expected tool in order, the best-weighted same-named called
 * tool not "already matched" (first one on ties, `>`), added when its weight > 0.
 * The duplicate quirk, reproduced: "already matched" is `called_tool in matched_called_tools`, a set of
 * ToolCalls, and set membership uses ToolCall.__eq__ (name, input_parameters, output). A second call equal to
 * a matched one is skipped too, so expected [W, W] vs called [W, W] scores 0.5, not 1.
 */
function unorderedMatch(called: ToolCall[], expected: ExpectedToolCall[], params: DeepEvalToolCallParam[]) {
  const matchedCalled: number[] = [];
  const quirks: string[] = [];
  let total = 0;
  const matches = expected.map((want, expectedIndex): ToolCallMatch => {
    let [best, bestIndex] = [0, -1];
    let lost: { weight: number; calledIndex: number; twin: number } | null = null;
    for (let calledIndex = 0; calledIndex < called.length; calledIndex++) {
      const call = called[calledIndex];
      if (call.name !== want.name || matchedCalled.includes(calledIndex)) continue;
      const weight = pairWeight(want, call, params);
      const twin = matchedCalled.find((index) => sameToolCall(called[index], call));
      if (twin === undefined) {
        if (weight > best) [best, bestIndex] = [weight, calledIndex];
      } else if (weight > (lost?.weight ?? 0)) {
        lost = { weight, calledIndex, twin }; // skipped only because it equals another matched call
      }
    }
    if (best > 0) {
      total += best;
      matchedCalled.push(bestIndex);
    }
    if (lost !== null && lost.weight > best) {
      quirks.push(
        `DeepEval duplicate quirk: expected ${want.name} (#${expectedIndex + 1}) skipped call #${lost.calledIndex + 1} ` +
          `because it equals the already-matched call #${lost.twin + 1} (same name, arguments and output), ` +
          `so it counts ${round(best)} instead of ${round(lost.weight)}`,
      );
    }
    return { expectedIndex, calledIndex: best > 0 ? bestIndex : null, weight: best };
  });
  const reason = describe(called, expected, matches, false) + (quirks.length > 0 ? `. ${quirks.join(". ")}` : "");
  return { score: total / expected.length, reason, matches };
}

export function deepEvalToolCorrectness(
  called: ToolCall[],
  expected: ExpectedToolCall[],
  options: DeepEvalToolCorrectnessOptions,
): DeepEvalToolCorrectnessResult {
  const params = options.evaluationParams;
  if (options.shouldExactMatch) return exactMatch(called, expected, params);
  if (expected.length === 0) return emptyCase(called);
  return options.shouldConsiderOrdering
    ? orderedMatch(called, expected, params)
    : unorderedMatch(called, expected, params);
}
