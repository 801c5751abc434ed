// The deterministic tool-call scorers (lib/metrics/toolCalls/): DeepEval's ToolCorrectnessMetric, MLflow's
// ToolCallCorrectness exact mode, DeepEval's tool-repetition check, and the Python `==` / `json.dumps` they
// rest on. Expected values are hand-computed; the DeepEval and MLflow ones were also re-run through the
// upstream Python logic transcribed line for line (python3), with the same results.
import { describe, expect, it } from "vitest";
import type { ExpectedToolCall, ToolCall } from "@/lib/contract/toolCalls";
import {
  deepEvalCompareDicts,
  deepEvalToolCorrectness,
  type DeepEvalToolCorrectnessOptions,
} from "@/lib/metrics/toolCalls/deepEvalToolCorrectness";
import { mlflowToolCallExactMatch, pythonStrRepr } from "@/lib/metrics/toolCalls/mlflowExactMatch";
import { canonicalJson, pythonEquals, pythonJsonDumps } from "@/lib/metrics/toolCalls/pythonEquality";
import { detectToolCallLoops } from "@/lib/metrics/toolCalls/toolCallLoops";

type Args = Record<string, unknown> | null;
const call = (name: string, args: Args = null, output: unknown = null): ToolCall => ({
  name,
  arguments: args,
  output,
  error: null,
  startMs: null,
  durationMs: null,
  spanId: null,
});
const exp = (name: string, args: Args = null, output: unknown = null): ExpectedToolCall => ({
  name,
  arguments: args,
  output,
});

const UNORDERED: DeepEvalToolCorrectnessOptions = {
  evaluationParams: [],
  shouldExactMatch: false,
  shouldConsiderOrdering: false,
};
const ORDERED = { ...UNORDERED, shouldConsiderOrdering: true };
const EXACT = { ...UNORDERED, shouldExactMatch: true };
const withParams = (
  options: DeepEvalToolCorrectnessOptions,
  ...evaluationParams: ("input_parameters" | "output")[]
) => ({
  ...options,
  evaluationParams,
});

describe("DeepEval ToolCorrectness: the research file's re-run table", () => {
  it("docs example: expected [WebSearch], called [WebSearch, ToolQuery] = 1", () => {
    const result = deepEvalToolCorrectness([call("WebSearch"), call("ToolQuery")], [exp("WebSearch")], UNORDERED);
    expect(result.score).toBe(1);
    expect(result.matches).toEqual([{ expectedIndex: 0, calledIndex: 0, weight: 1 }]);
  });

  it("extra calls are not penalised: expected [W], called [W, Q, Q, Q] = 1 (the denominator is len(expected))", () => {
    const called = [call("W"), call("Q"), call("Q"), call("Q")];
    const result = deepEvalToolCorrectness(called, [exp("W")], UNORDERED);
    expect(result.score).toBe(1);
    expect(result.reason).toContain("extra calls, not penalised: Q, Q, Q");
  });

  it("duplicate identical calls under-count: expected [W, W], called [W, W], unordered = 0.5", () => {
    // The second expected W skips called #2: it == the matched called #1 (set membership uses ToolCall.__eq__).
    const result = deepEvalToolCorrectness([call("W"), call("W")], [exp("W"), exp("W")], UNORDERED);
    expect(result.score).toBe(0.5);
    expect(result.matches).toEqual([
      { expectedIndex: 0, calledIndex: 0, weight: 1 },
      { expectedIndex: 1, calledIndex: null, weight: 0 },
    ]);
    expect(result.reason).toContain("DeepEval duplicate quirk");
    expect(result.reason).toContain("skipped call #2 because it equals the already-matched call #1");
  });

  it("no under-count when the duplicates differ in arguments, even with input_parameters not selected", () => {
    const called = [call("W", { a: 1 }), call("W", { b: 1 })];
    expect(deepEvalToolCorrectness(called, [exp("W", { a: 1 }), exp("W", { b: 1 })], UNORDERED).score).toBe(1);
    // __eq__ compares input_parameters whatever evaluation_params says.
    const result = deepEvalToolCorrectness(called, [exp("W"), exp("W")], UNORDERED);
    expect(result.score).toBe(1);
    expect(result.reason).not.toContain("quirk");
  });

  it("no under-count when the duplicates differ only in output", () => {
    const called = [call("W", { q: 1 }, "a"), call("W", { q: 1 }, "b")];
    const result = deepEvalToolCorrectness(
      called,
      [exp("W", { q: 1 }), exp("W", { q: 1 })],
      withParams(UNORDERED, "input_parameters"),
    );
    expect(result.score).toBe(1);
  });

  it("the quirk also hides a partial match: 1 + 0 instead of 1 + 0.5, so 0.5", () => {
    // Expected #2 {q:1,k:2} vs called #2 {q:1,k:1} would weigh 1/2 (q equal; union {q,k}), but called #2 == called #1.
    const called = [call("W", { q: 1, k: 1 }), call("W", { q: 1, k: 1 })];
    const expected = [exp("W", { q: 1, k: 1 }), exp("W", { q: 1, k: 2 })];
    const result = deepEvalToolCorrectness(called, expected, withParams(UNORDERED, "input_parameters"));
    expect(result.score).toBe(0.5);
    expect(result.reason).toContain("so it counts 0 instead of 0.5");
  });

  it("docs' ordering example: expected [W, Q, W], called [W, W, Q] = 2/3 ordered (LCS W,Q or W,W)", () => {
    const called = [call("W"), call("W"), call("Q")];
    const expected = [exp("W"), exp("Q"), exp("W")];
    const ordered = deepEvalToolCorrectness(called, expected, ORDERED);
    expect(ordered.score).toBeCloseTo(2 / 3, 12);
    expect(ordered.matches.filter((match) => match.calledIndex !== null)).toHaveLength(2);
    // Unordered the quirk gives 2/3 as well: the second expected W finds called #2 == matched called #1.
    const unordered = deepEvalToolCorrectness(called, expected, UNORDERED);
    expect(unordered.score).toBeCloseTo(2 / 3, 12);
    expect(unordered.reason).toContain("quirk");
  });

  it('params partly matching: {"q":"mlflow","k":5} vs {"q":"mlflow","k":3} = 0.5 (1 shared equal key of 2)', () => {
    const result = deepEvalToolCorrectness(
      [call("W", { q: "mlflow", k: 3 })],
      [exp("W", { q: "mlflow", k: 5 })],
      withParams(UNORDERED, "input_parameters"),
    );
    expect(result.score).toBe(0.5);
    expect(result.matches).toEqual([{ expectedIndex: 0, calledIndex: 0, weight: 0.5 }]);
    expect(result.reason).toContain("partly matching: W 0.5");
  });

  it("both empty = 1 and no expected but some called = 0, in every mode", () => {
    for (const options of [UNORDERED, ORDERED, EXACT]) {
      expect(deepEvalToolCorrectness([], [], options).score).toBe(1);
      expect(deepEvalToolCorrectness([call("W")], [], options).score).toBe(0);
    }
    expect(deepEvalToolCorrectness([call("W")], [], UNORDERED).reason).toContain("No tools were expected but 1");
  });

  it("expected but nothing called = 0", () => {
    const result = deepEvalToolCorrectness([], [exp("W"), exp("Q")], ORDERED);
    expect(result.score).toBe(0);
    expect(result.reason).toContain("missing: W, Q");
  });
});

describe("DeepEval _compare_dicts", () => {
  it("recurses into nested dicts: 1/2 (b) + (1/2)/2 (a) = 0.75", () => {
    // union {a, b} = 2: b equal → 1/2; a both dicts → compare({x:1,y:2},{x:1,y:3}) = 1/2 (x of {x,y}) → 1/2 / 2 = 1/4.
    expect(deepEvalCompareDicts({ a: { x: 1, y: 2 }, b: 1 }, { a: { x: 1, y: 3 }, b: 1 })).toBe(0.75);
  });

  it("three levels, a list and a key only one side has: 0.4375", () => {
    // union {a,b,c,d} = 4. c equal → 1/4. b lists differ → 0 (no recursion into lists). d on one side → 0.
    // a: union {x,y} = 2; x → 1/2; y: {p,q}, p equal → 1/2, so y = (1/2)/2 = 1/4; a = 3/4 → (3/4)/4 = 3/16.
    // 1/4 + 3/16 = 0.4375.
    const expected = { a: { x: 1, y: { p: 1, q: 9 } }, b: [1, 3], c: "z", d: 0 };
    const called = { a: { x: 1, y: { p: 1, q: 2 } }, b: [1, 2], c: "z" };
    expect(deepEvalCompareDicts(expected, called)).toBe(0.4375);
    const result = deepEvalToolCorrectness(
      [call("W", called)],
      [exp("W", expected)],
      withParams(UNORDERED, "input_parameters"),
    );
    expect(result.score).toBe(0.4375);
  });

  it("uses Python ==: 1 == 1.0 == True, key order irrelevant", () => {
    expect(deepEvalCompareDicts({ k: 1, f: true, n: { a: 1, b: 2 } }, { n: { b: 2, a: 1 }, f: 1, k: 1.0 })).toBe(1);
    expect(deepEvalCompareDicts({ k: "1" }, { k: 1 })).toBe(0);
  });

  it("None on one side reads as {} instead of raising (DeepEval raises AttributeError)", () => {
    expect(deepEvalCompareDicts(null, { a: 1 })).toBe(0);
    expect(deepEvalCompareDicts(null, {})).toBe(1);
    expect(deepEvalCompareDicts(null, null)).toBe(1); // None == None in DeepEval too
    const options = withParams(UNORDERED, "input_parameters");
    expect(() => deepEvalToolCorrectness([call("W", { a: 1 })], [exp("W")], options)).not.toThrow();
    expect(deepEvalToolCorrectness([call("W", { a: 1 })], [exp("W")], options).score).toBe(0);
    expect(deepEvalToolCorrectness([call("W")], [exp("W")], options).score).toBe(1);
  });
});

describe("DeepEval ToolCorrectness: outputs, ordering, exact match, reasons", () => {
  it("OUTPUT compares outputs with Python != (an expected output left null only matches a null output)", () => {
    const options = withParams(UNORDERED, "output");
    expect(deepEvalToolCorrectness([call("W", null, "r1")], [exp("W", null, "r2")], options).score).toBe(0);
    expect(deepEvalToolCorrectness([call("W", null, { n: 1 })], [exp("W", null, { n: 1.0 })], options).score).toBe(1);
    expect(deepEvalToolCorrectness([call("W", null, "r1")], [exp("W")], options).score).toBe(0);
  });

  it("unordered takes the best-weighted unmatched same-named call", () => {
    const called = [call("W", { q: "a", k: 1 }), call("W", { q: "a", k: 2 })];
    const result = deepEvalToolCorrectness(
      called,
      [exp("W", { q: "a", k: 2 })],
      withParams(UNORDERED, "input_parameters"),
    );
    expect(result.score).toBe(1);
    expect(result.matches).toEqual([{ expectedIndex: 0, calledIndex: 1, weight: 1 }]);
  });

  it("ordered: partial arguments weigh in the LCS, (0.5 + 1) / 2 = 0.75", () => {
    const called = [call("W", { q: "x", k: 3 }), call("Q", { id: 1 })];
    const expected = [exp("W", { q: "x", k: 5 }), exp("Q", { id: 1 })];
    const result = deepEvalToolCorrectness(called, expected, withParams(ORDERED, "input_parameters"));
    expect(result.score).toBe(0.75);
    expect(result.matches).toEqual([
      { expectedIndex: 0, calledIndex: 0, weight: 0.5 },
      { expectedIndex: 1, calledIndex: 1, weight: 1 },
    ]);
  });

  it("ordered: a swapped pair keeps one of the two, 1/2", () => {
    const result = deepEvalToolCorrectness([call("Q"), call("W")], [exp("W"), exp("Q")], ORDERED);
    expect(result.score).toBe(0.5);
    expect(result.reason).toContain("1 of 2 expected tools called in order");
    expect(result.reason).toContain("called, but out of order or with other arguments/output");
    // Unordered the same calls are complete.
    expect(deepEvalToolCorrectness([call("Q"), call("W")], [exp("W"), exp("Q")], UNORDERED).score).toBe(1);
  });

  it("exact match: same length, names, and the selected params, position by position; 1 or 0", () => {
    expect(deepEvalToolCorrectness([call("W"), call("Q")], [exp("W"), exp("Q")], EXACT).score).toBe(1);
    const swapped = deepEvalToolCorrectness([call("Q"), call("W")], [exp("W"), exp("Q")], EXACT);
    expect(swapped.score).toBe(0);
    expect(swapped.reason).toBe(
      "Not an exact match: position 1: expected W, called Q; position 2: expected Q, called W.",
    );
    expect(deepEvalToolCorrectness([call("W"), call("Q")], [exp("W")], EXACT).score).toBe(0); // extra call
    expect(
      deepEvalToolCorrectness([call("W", { a: 1 })], [exp("W", { a: 2 })], withParams(EXACT, "input_parameters")).score,
    ).toBe(0);
    expect(deepEvalToolCorrectness([call("W", { a: 1 })], [exp("W", { a: 2 })], EXACT).score).toBe(1); // params not selected
  });

  it("exact match compares input_parameters with != : None != {} there", () => {
    const result = deepEvalToolCorrectness([call("W", {})], [exp("W")], withParams(EXACT, "input_parameters"));
    expect(result.score).toBe(0);
    expect(result.matches).toEqual([{ expectedIndex: 0, calledIndex: null, weight: 0 }]);
  });

  it("says in words what was called and missed", () => {
    const result = deepEvalToolCorrectness(
      [call("search"), call("fetch")],
      [exp("search"), exp("fetch"), exp("book")],
      UNORDERED,
    );
    expect(result.score).toBeCloseTo(2 / 3, 12);
    expect(result.reason).toBe("2 of 3 expected tools called (search, fetch); missing: book. Score 2/3");
  });
});

describe("MLflow ToolCallCorrectness, should_exact_match=True", () => {
  const search = (q: string) => call("search", { q });
  it("ordered: signatures position by position", () => {
    const expected = [exp("search", { q: "a" }), exp("fetch", { id: 1 })];
    expect(mlflowToolCallExactMatch([search("a"), call("fetch", { id: 1 })], expected, { ordered: true })).toEqual({
      rating: "yes",
      rationale: "All tool calls match expected sequence exactly.",
    });
    expect(mlflowToolCallExactMatch([call("fetch", { id: 1 }), search("a")], expected, { ordered: true })).toEqual({
      rating: "no",
      rationale:
        'Tool calls do not match in order: Position 1: expected search({"q": "a"}), got fetch({"id": 1}); ' +
        'Position 2: expected fetch({"id": 1}), got search({"q": "a"})',
    });
  });

  it("ordered with names only", () => {
    const result = mlflowToolCallExactMatch([call("search"), call("book")], [exp("search"), exp("fetch")], {
      ordered: true,
    });
    expect(result).toEqual({
      rating: "no",
      rationale: "Tool calls do not match in order: Position 2: expected fetch, got book",
    });
  });

  it("unordered: set equality; the same calls in another order are yes", () => {
    const expected = [exp("search", { q: "a" }), exp("fetch", { id: 1 })];
    const result = mlflowToolCallExactMatch([call("fetch", { id: 1 }), search("a")], expected, { ordered: false });
    expect(result).toEqual({ rating: "yes", rationale: "All expected tool calls present (order ignored)." });
  });

  it("unordered: duplicates collapse, [A, A, B] vs [A, B, B] is yes (names and with arguments)", () => {
    const called = [call("A"), call("B"), call("B")];
    expect(mlflowToolCallExactMatch(called, [exp("A"), exp("A"), exp("B")], { ordered: false })?.rating).toBe("yes");
    const withArgs = [call("A", { x: 1 }), call("B", { y: 2 }), call("B", { y: 2 })];
    const expected = [exp("A", { x: 1 }), exp("A", { x: 1 }), exp("B", { y: 2 })];
    expect(mlflowToolCallExactMatch(withArgs, expected, { ordered: false })?.rating).toBe("yes");
    expect(mlflowToolCallExactMatch(withArgs, expected, { ordered: true })?.rating).toBe("no");
  });

  it("different lengths are no before any comparison", () => {
    expect(
      mlflowToolCallExactMatch([call("A"), call("A"), call("B")], [exp("A"), exp("B")], { ordered: false }),
    ).toEqual({
      rating: "no",
      rationale: "Expected 2 tool call(s), but got 3 tool call(s).",
    });
  });

  it("an expected call without arguments makes EVERY signature a bare name (include_arguments is per row)", () => {
    expect(mlflowToolCallExactMatch([search("anything")], [exp("search")], { ordered: true })?.rating).toBe("yes");
    // One expected call has arguments, the other not: arguments are ignored for both.
    const called = [search("b"), call("fetch", { id: 9 })];
    const expected = [exp("search", { q: "a" }), exp("fetch")];
    expect(mlflowToolCallExactMatch(called, expected, { ordered: true })?.rating).toBe("yes");
  });

  it("with arguments on every expected call: canonical JSON signatures, missing and unexpected as Python sets", () => {
    const result = mlflowToolCallExactMatch([search("b")], [exp("search", { q: "a" })], { ordered: false });
    expect(result).toEqual({
      rating: "no",
      rationale: `Missing: {'search({"q": "a"})'}; Unexpected: {'search({"q": "b"})'}`,
    });
    const onlyMissing = mlflowToolCallExactMatch([call("A"), call("A")], [exp("A"), exp("B")], { ordered: false });
    expect(onlyMissing).toEqual({ rating: "no", rationale: "Missing: {'B'}" });
  });

  it("signatures are strings: key order is irrelevant, a missing argument dict reads {}, but 1 and true differ", () => {
    expect(
      mlflowToolCallExactMatch([call("s", { b: 1, a: 2 })], [exp("s", { a: 2, b: 1 })], { ordered: true })?.rating,
    ).toBe("yes");
    expect(mlflowToolCallExactMatch([call("s")], [exp("s", {})], { ordered: true })?.rating).toBe("yes");
    expect(mlflowToolCallExactMatch([call("s", { k: true })], [exp("s", { k: 1 })], { ordered: true })?.rating).toBe(
      "no",
    );
  });

  it("an empty expected list is no expectation: null, the row is skipped", () => {
    expect(mlflowToolCallExactMatch([call("A")], [], { ordered: false })).toBeNull();
    expect(mlflowToolCallExactMatch([], [], { ordered: true })).toBeNull();
  });

  it("Python repr of the set items: quotes and escapes", () => {
    expect(pythonStrRepr(`search({"q": "it's"})`)).toBe(`'search({"q": "it\\'s"})'`);
    expect(pythonStrRepr("it's")).toBe(`"it's"`);
    expect(pythonStrRepr("a\\b\ttab")).toBe(`'a\\\\b\\ttab'`);
    expect(pythonStrRepr("x\u007fy\u0085é\u00a0\u200b")).toBe(`'x\\x7fy\\x85é\\xa0\\u200b'`);
  });
});

describe("Python == and json.dumps(sort_keys=True)", () => {
  it("== on JSON values", () => {
    expect(pythonEquals(true, 1)).toBe(true);
    expect(pythonEquals(false, 0)).toBe(true);
    expect(pythonEquals(1, 1.0)).toBe(true);
    expect(pythonEquals(10n, 10)).toBe(true);
    expect(pythonEquals("1", 1)).toBe(false);
    expect(pythonEquals(null, {})).toBe(false);
    expect(pythonEquals(Number.NaN, Number.NaN)).toBe(false);
    expect(pythonEquals([1, 2], [2, 1])).toBe(false);
    expect(pythonEquals([], {})).toBe(false);
    expect(pythonEquals({ a: 1, b: { c: [1, { d: 2 }] } }, { b: { c: [1, { d: 2 }] }, a: 1 })).toBe(true);
    expect(pythonEquals({ a: 1 }, { a: 1, b: 2 })).toBe(false);
  });

  it("canonical JSON of unicode and nested keys, as Python writes it", () => {
    // python3: json.dumps({"b":1,"a":"é😀","z":{"y":[1,2.5,1e-05],"x":None}}, sort_keys=True)
    expect(canonicalJson({ b: 1, a: "é😀", z: { y: [1, 2.5, 1e-5], x: null } })).toBe(
      '{"a": "\\u00e9\\ud83d\\ude00", "b": 1, "z": {"x": null, "y": [1, 2.5, 1e-05]}}',
    );
    // Code-point order: U+FFFF sorts before U+1F600 (UTF-16 order would put the emoji first).
    expect(canonicalJson({ "😀": 1, "\uffff": 2 })).toBe('{"\\uffff": 2, "\\ud83d\\ude00": 1}');
  });

  it("escapes, literals and numbers", () => {
    expect(canonicalJson('\u0007\u007f\n\t"\\/')).toBe('"\\u0007\\u007f\\n\\t\\"\\\\/"');
    expect(canonicalJson([true, false, null, {}, [], -0.5, 2.5e-10, 0.1 + 0.2])).toBe(
      "[true, false, null, {}, [], -0.5, 2.5e-10, 0.30000000000000004]",
    );
    expect([0.0001, 1.5e-7, 123.456, 1e21].map((n) => canonicalJson(n))).toEqual([
      "0.0001",
      "1.5e-07",
      "123.456",
      "1000000000000000000000", // integer-valued: written as a Python int (documented limit)
    ]);
  });

  it("without sort_keys the key order is kept", () => {
    expect(pythonJsonDumps({ b: 1, a: 2 })).toBe('{"b": 1, "a": 2}');
  });
});

describe("tool-call loops (DeepEval AgentLoopDetection's tool repetition)", () => {
  const repeat = (times: number, args: Args = { q: "x" }) => Array.from({ length: times }, () => call("search", args));

  it("2 identical calls: under the threshold, score 1", () => {
    expect(detectToolCallLoops(repeat(2))).toEqual({ loops: [], repetitionScore: 1 });
  });

  it("3 identical calls: 0.5", () => {
    expect(detectToolCallLoops(repeat(3))).toEqual({
      loops: [{ name: "search", arguments: { q: "x" }, count: 3, positions: [0, 1, 2] }],
      repetitionScore: 0.5,
    });
  });

  it("5 identical calls: still 0.5; 6 (2 × threshold): 0", () => {
    expect(detectToolCallLoops(repeat(5)).repetitionScore).toBe(0.5);
    expect(detectToolCallLoops(repeat(6)).repetitionScore).toBe(0);
  });

  it("counts over the whole trace, not only consecutive calls; the most repeated group decides", () => {
    const calls = [
      call("a", { n: 1 }),
      call("b"),
      call("a", { n: 1 }),
      call("c"),
      call("a", { n: 1 }),
      call("b"),
      call("b"),
    ];
    const result = detectToolCallLoops(calls);
    expect(result.repetitionScore).toBe(0.5);
    expect(result.loops.map((loop) => [loop.name, loop.count, loop.positions])).toEqual([
      ["a", 3, [0, 2, 4]],
      ["b", 3, [1, 5, 6]],
    ]);
  });

  it("identical = same name and Python-equal arguments; null arguments equal {}", () => {
    const sameArgs = [
      call("s", { a: 1, b: { c: 2, d: 3 } }),
      call("s", { b: { d: 3, c: 2 }, a: 1.0 }),
      call("s", { a: true, b: { c: 2, d: 3 } }),
    ];
    expect(detectToolCallLoops(sameArgs).repetitionScore).toBe(0.5);
    expect(detectToolCallLoops([call("s"), call("s", {}), call("s")]).repetitionScore).toBe(0.5);
    expect(detectToolCallLoops([call("s", { q: 1 }), call("s", { q: 2 }), call("s", { q: 3 })]).repetitionScore).toBe(
      1,
    );
    expect(detectToolCallLoops([call("s", { q: 1 }), call("t", { q: 1 }), call("s", { q: 1 })]).repetitionScore).toBe(
      1,
    );
  });

  it("no calls: 1; a custom threshold of 2: 2 calls → 0.5, 4 → 0", () => {
    expect(detectToolCallLoops([])).toEqual({ loops: [], repetitionScore: 1 });
    expect(detectToolCallLoops(repeat(2), { repetitionThreshold: 2 }).repetitionScore).toBe(0.5);
    expect(detectToolCallLoops(repeat(4), { repetitionThreshold: 2 }).repetitionScore).toBe(0);
  });
});
