// The drill-down's expected calls beside the actual ones (lib/traces/toolCallAlignment.ts): what a reviewer
// reads as matched, called with other arguments, missing or extra, and whether the pairs came in order.
import { describe, expect, it } from "vitest";
import type { ExpectedToolCall, ToolCall } from "@/lib/contract/toolCalls";
import { alignToolCalls, type ToolCallAlignment } from "@/lib/traces/toolCallAlignment";

type Args = Record<string, unknown> | null;
const call = (name: string, args: Args = null): ToolCall => ({
  name,
  arguments: args,
  output: null,
  error: null,
  startMs: null,
  durationMs: null,
  spanId: null,
});
const want = (name: string, args: Args = null): ExpectedToolCall => ({ name, arguments: args, output: null });

/** Each expected call as "status→called index", each actual call's expected index (or "extra"). */
function summary(alignment: ToolCallAlignment) {
  return {
    expected: alignment.expected.map((row) => `${row.status}→${row.calledIndex ?? "-"}`),
    called: alignment.called.map((row) => row.expectedIndex ?? "extra"),
    inOrder: alignment.inOrder,
  };
}

describe("alignToolCalls", () => {
  it("pairs equal calls as matched and leaves an unrequested call extra (DeepEval's docs example)", () => {
    const alignment = alignToolCalls(
      [call("search", { q: "mlflow" }), call("fetch", { url: "u1" })],
      [want("search", { q: "mlflow" })],
    );
    expect(summary(alignment)).toEqual({ expected: ["matched→0"], called: [0, "extra"], inOrder: true });
    expect(alignment.called[0].call.name).toBe("search");
  });

  it("says a call of the right tool with other arguments is that, not missing", () => {
    const alignment = alignToolCalls(
      [call("book", { flight: { from: "SFO", to: "JFK" }, seats: 2 })],
      [want("book", { flight: { from: "SFO", to: "LAX" }, seats: 2 })],
    );
    expect(summary(alignment)).toEqual({ expected: ["other_arguments→0"], called: [0], inOrder: true });
  });

  it("compares arguments as Python does: key order and 1 == 1.0 do not matter", () => {
    const alignment = alignToolCalls([call("search", { q: "a", k: 2.0 })], [want("search", { k: 2, q: "a" })]);
    expect(summary(alignment).expected).toEqual(["matched→0"]);
  });

  it("matches any arguments when the expected call gives none (a bare name)", () => {
    const alignment = alignToolCalls([call("search", { q: "anything" })], [want("search")]);
    expect(summary(alignment).expected).toEqual(["matched→0"]);
  });

  it("says a tool never called is missing, and the wrong tool extra", () => {
    expect(summary(alignToolCalls([call("fetch", { url: "u" })], [want("search", { q: "a" })]))).toEqual({
      expected: ["missing→-"],
      called: ["extra"],
      inOrder: true,
    });
    expect(summary(alignToolCalls([], [want("search", { q: "a" })]))).toEqual({
      expected: ["missing→-"],
      called: [],
      inOrder: true,
    });
  });

  it("pairs duplicates one to one: two equal expected calls take two calls, a third call is extra", () => {
    const alignment = alignToolCalls(
      [call("search", { q: "a" }), call("search", { q: "a" }), call("search", { q: "a" })],
      [want("search", { q: "a" }), want("search", { q: "a" })],
    );
    expect(summary(alignment)).toEqual({
      expected: ["matched→0", "matched→1"],
      called: [0, 1, "extra"],
      inOrder: true,
    });
  });

  it("pairs duplicates with different arguments each with its equal call, in either order", () => {
    const alignment = alignToolCalls(
      [call("search", { q: "b" }), call("search", { q: "a" })],
      [want("search", { q: "a" }), want("search", { q: "b" })],
    );
    expect(summary(alignment)).toEqual({ expected: ["matched→1", "matched→0"], called: [1, 0], inOrder: false });
  });

  it("keeps an equal call for the expected call it matches, rather than spending it on an earlier near miss", () => {
    const alignment = alignToolCalls(
      [call("search", { q: "a" }), call("search", { q: "c" })],
      [want("search", { q: "b" }), want("search", { q: "a" })],
    );
    expect(summary(alignment)).toEqual({
      expected: ["other_arguments→1", "matched→0"],
      called: [1, 0],
      inOrder: false,
    });
  });

  it("lets an expected call without arguments take what its name leaves, after the calls with equal arguments", () => {
    const alignment = alignToolCalls(
      [call("search", { q: "a" }), call("search", { q: "b" })],
      [want("search"), want("search", { q: "a" })],
    );
    expect(summary(alignment)).toEqual({ expected: ["matched→1", "matched→0"], called: [1, 0], inOrder: false });
  });

  it("says whether the paired calls came in the expected order (DeepEval's ordering example)", () => {
    // Expected [S, F, S], called [S, S, F]: every call is paired, but F came last.
    const alignment = alignToolCalls(
      [call("search", { q: "a" }), call("search", { q: "a" }), call("fetch", { url: "u" })],
      [want("search", { q: "a" }), want("fetch", { url: "u" }), want("search", { q: "a" })],
    );
    expect(summary(alignment)).toEqual({
      expected: ["matched→0", "matched→2", "matched→1"],
      called: [0, 2, 1],
      inOrder: false,
    });
    // The right tools in the right order, with an extra call and a missing one between them.
    const ordered = alignToolCalls(
      [call("search", { q: "a" }), call("log"), call("fetch", { url: "u" })],
      [want("search", { q: "a" }), want("rank"), want("fetch", { url: "u" })],
    );
    expect(summary(ordered)).toEqual({
      expected: ["matched→0", "missing→-", "matched→2"],
      called: [0, "extra", 2],
      inOrder: true,
    });
  });

  it("has nothing to pair on empty lists", () => {
    expect(summary(alignToolCalls([], []))).toEqual({ expected: [], called: [], inOrder: true });
    expect(summary(alignToolCalls([call("search")], []))).toEqual({ expected: [], called: ["extra"], inOrder: true });
  });
});
