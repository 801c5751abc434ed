// Two versions' tool calls lined up side by side (lib/traces/trajectoryDiff.ts): which calls both made alike,
// which with other arguments, which only one made, where they first part, and the one-line summary.
import { describe, expect, it } from "vitest";
import type { ToolCall } from "@/lib/contract/toolCalls";
import {
  describeTrajectoryDiff,
  diffTrajectories,
  MAX_ALIGNED_CELLS,
  type TrajectoryDiff,
} from "@/lib/traces/trajectoryDiff";

type Args = Record<string, unknown> | null;
const call = (name: string, args: Args = null, extra: Partial<ToolCall> = {}): ToolCall => ({
  name,
  arguments: args,
  output: null,
  error: null,
  startMs: null,
  durationMs: null,
  spanId: null,
  ...extra,
});

/** Each row as "kind baseline-index/candidate-index", "-" for the side without a call. */
function lines(diff: TrajectoryDiff): string[] {
  return diff.rows.map((row) => `${row.kind} ${row.baseline ?? "-"}/${row.candidate ?? "-"}`);
}

describe("diffTrajectories", () => {
  it("lines identical calls up one to one, with no divergence", () => {
    const calls = [call("list_buckets"), call("get_bucket", { name: "logs" }), call("read_object", { key: "a" })];
    const copy = calls.map((c) => ({ ...c, arguments: c.arguments && { ...c.arguments } }));
    const diff = diffTrajectories(calls, copy);
    expect(lines(diff)).toEqual(["same 0/0", "same 1/1", "same 2/2"]);
    expect(diff.firstDivergence).toBeNull();
    expect(describeTrajectoryDiff(diff, calls, copy)).toBe(
      "Baseline: 3 calls · Candidate: 3 calls · the same calls in the same order",
    );
  });

  it("compares arguments as Python does: 1 == 1.0 == True, key order ignored, no arguments as {}", () => {
    const diff = diffTrajectories(
      [call("page", { n: 1, opts: { a: 1, b: 2 } }), call("ping")],
      [call("page", { opts: { b: 2, a: 1 }, n: true }), call("ping", {})],
    );
    expect(lines(diff)).toEqual(["same 0/0", "same 1/1"]);
  });

  it("leaves every other call on its partner's line when the candidate makes one extra call", () => {
    const base = [call("get_bucket", { name: "logs" }), call("read_object", { key: "a" })];
    const cand = [call("get_bucket", { name: "logs" }), call("list_objects"), call("read_object", { key: "a" })];
    const diff = diffTrajectories(base, cand);
    expect(lines(diff)).toEqual(["same 0/0", "only_candidate -/1", "same 1/2"]);
    expect(diff.firstDivergence).toBe(1);
    expect(describeTrajectoryDiff(diff, base, cand)).toBe(
      "Baseline: 2 calls · Candidate: 3 calls · first difference at call 2: read_object vs list_objects",
    );
  });

  it("an extra call at the end: the baseline makes no call there", () => {
    const base = [call("search", { q: "a" })];
    const cand = [call("search", { q: "a" }), call("fetch", { url: "u" })];
    const diff = diffTrajectories(base, cand);
    expect(lines(diff)).toEqual(["same 0/0", "only_candidate -/1"]);
    expect(describeTrajectoryDiff(diff, base, cand)).toContain("first difference at call 2: no call vs fetch");
  });

  it("a swapped pair keeps one call aligned and shows the other on each side", () => {
    const base = [call("get_bucket"), call("list_buckets"), call("done")];
    const cand = [call("list_buckets"), call("get_bucket"), call("done")];
    const diff = diffTrajectories(base, cand);
    // The baseline's lone call before the candidate's, as a diff lists deletions before insertions.
    expect(lines(diff)).toEqual(["only_baseline 0/-", "same 1/0", "only_candidate -/1", "same 2/2"]);
    expect(diff.firstDivergence).toBe(0);
    expect(describeTrajectoryDiff(diff, base, cand)).toBe(
      "Baseline: 3 calls · Candidate: 3 calls · first difference at call 1: get_bucket vs list_buckets",
    );
  });

  it("pairs calls of one name with other arguments, and says so", () => {
    const base = [call("search", { q: "mlflow" }), call("fetch", { url: "u1" }), call("answer")];
    const cand = [call("search", { q: "mlflow" }), call("fetch", { url: "u2" }), call("answer")];
    const diff = diffTrajectories(base, cand);
    expect(lines(diff)).toEqual(["same 0/0", "other_arguments 1/1", "same 2/2"]);
    expect(diff.firstDivergence).toBe(1);
    expect(describeTrajectoryDiff(diff, base, cand)).toContain(
      "first difference at call 2: fetch with other arguments",
    );
  });

  it("within a gap, pairs by name in order and leaves the rest to one side", () => {
    const base = [call("a"), call("x", { v: 1 }), call("y", { v: 1 }), call("z")];
    const cand = [call("a"), call("w"), call("y", { v: 2 }), call("z")];
    expect(lines(diffTrajectories(base, cand))).toEqual([
      "same 0/0",
      "only_baseline 1/-",
      "only_candidate -/1",
      "other_arguments 2/2",
      "same 3/3",
    ]);
  });

  it("one side with no calls: every call the other side's, diverging at call 1", () => {
    const cand = [call("search", { q: "a" }, { error: "TimeoutError: slow", durationMs: 1200 })];
    const diff = diffTrajectories([], cand);
    expect(lines(diff)).toEqual(["only_candidate -/0"]);
    expect(diff.firstDivergence).toBe(0);
    expect(diff.counts).toEqual({
      baseline: { calls: 0, errors: 0, durationMs: null },
      candidate: { calls: 1, errors: 1, durationMs: 1200 },
    });
    expect(describeTrajectoryDiff(diff, [], cand)).toBe(
      "Baseline: 0 calls · Candidate: 1 call, 1 failed · first difference at call 1: no call vs search",
    );
    expect(describeTrajectoryDiff(diffTrajectories([], []), [], [])).toBe(
      "Baseline: 0 calls · Candidate: 0 calls · neither called a tool",
    );
  });

  it("a side that records no calls (null) lists the other's, with no divergence and no counts", () => {
    const base = [call("search"), call("fetch")];
    const diff = diffTrajectories(base, null);
    expect(lines(diff)).toEqual(["only_baseline 0/-", "only_baseline 1/-"]);
    expect(diff.firstDivergence).toBeNull();
    expect(diff.counts.candidate).toBeNull();
    expect(describeTrajectoryDiff(diff, base, null)).toBe("Baseline: 2 calls · Candidate: no tool calls recorded");
    const neither = diffTrajectories(null, null);
    expect(neither).toEqual({ rows: [], firstDivergence: null, counts: { baseline: null, candidate: null } });
  });

  it("counts calls, failures and the total duration of each side (null when no call has one)", () => {
    const base = [
      call("a", null, { durationMs: 100 }),
      call("b", null, { durationMs: 250.5, error: "E: x" }),
      call("c", null, { error: "E: y" }),
    ];
    const diff = diffTrajectories(base, [call("a")]);
    expect(diff.counts.baseline).toEqual({ calls: 3, errors: 2, durationMs: 350.5 });
    expect(diff.counts.candidate).toEqual({ calls: 1, errors: 0, durationMs: null });
    expect(describeTrajectoryDiff(diff, base, [call("a")])).toMatch(
      /^Baseline: 3 calls, 2 failed · Candidate: 1 call ·/,
    );
  });

  it("lines up trajectories too long for the table call by call, every call still on a row", () => {
    const size = Math.ceil(Math.sqrt(MAX_ALIGNED_CELLS)) + 2;
    const base = Array.from({ length: size }, (_, i) => call(i % 2 ? "a" : "b", { i }));
    const cand = Array.from({ length: size + 1 }, (_, i) => call(i % 2 ? "b" : "a", { i }));
    const diff = diffTrajectories(base, cand);
    const covered = (side: "baseline" | "candidate") =>
      diff.rows.flatMap((row) => (row[side] === null ? [] : [row[side]]));
    expect(covered("baseline")).toEqual(base.map((_, i) => i));
    expect(covered("candidate")).toEqual(cand.map((_, i) => i));
    expect(diff.firstDivergence).toBe(0);
  });
});
