import type { ToolCall } from "@/lib/contract/toolCalls";
import { pythonEquals } from "@/lib/metrics/toolCalls/pythonEquality";

/**
 * Two versions of an agent's tool calls on the same request, lined up for people to read side by side.
 *
 * The calls both made alike (same name, arguments equal as Python's `==` sees them, as the tool metrics compare
 * them) are paired by their longest common subsequence, so an extra call or a swapped pair leaves every other
 * call on its partner's line. Between two such pairs, calls of the same name are paired in turn (again in
 * order) and said to differ in their arguments; what is left is one side's alone, the baseline's before the
 * candidate's, as a diff lists deletions before insertions.
 */
export type TrajectoryDiffKind = "same" | "other_arguments" | "only_baseline" | "only_candidate";
export type TrajectoryDiffRow = {
  /** The call's index in the baseline's calls, null on a line only the candidate has. */
  baseline: number | null;
  candidate: number | null;
  kind: TrajectoryDiffKind;
};
export type TrajectorySideCounts = {
  calls: number;
  /** Calls that ended in an error. */
  errors: number;
  /** The calls' durations added up; null when no call has one (a tool_calls column without duration_ms). */
  durationMs: number | null;
};
export type TrajectoryDiff = {
  rows: TrajectoryDiffRow[];
  /**
   * The first row that is not "same", or null when there is none, or when a side does not record its calls
   * (null): a missing record is no difference of behaviour. Every row before it took one call of each side,
   * so it is also the zero-based position of the first differing call on both sides.
   */
  firstDivergence: number | null;
  /** Null for a side that does not record its calls. */
  counts: { baseline: TrajectorySideCounts | null; candidate: TrajectorySideCounts | null };
};

/**
 * Past this many cells (baseline calls × candidate calls, after the shared start and end are set aside) the
 * middle is lined up call by call instead, so a pathological pair of long trajectories costs linear time
 * and no table of many megabytes; real agents make tens of calls.
 */
export const MAX_ALIGNED_CELLS = 1_000_000;

export function diffTrajectories(
  baseline: readonly ToolCall[] | null,
  candidate: readonly ToolCall[] | null,
): TrajectoryDiff {
  const base = baseline ?? [];
  const cand = candidate ?? [];
  const rows = alignCalls(base, cand);
  const firstDivergence =
    baseline === null || candidate === null ? null : nullIfMissing(rows.findIndex((row) => row.kind !== "same"));
  return { rows, firstDivergence, counts: { baseline: countsOf(baseline), candidate: countsOf(candidate) } };
}

/** The calls at the first divergence, one per side (null: that side made no call there). */
export function divergentCalls(
  diff: TrajectoryDiff,
  baseline: readonly ToolCall[] | null,
  candidate: readonly ToolCall[] | null,
): { position: number; baseline: ToolCall | null; candidate: ToolCall | null } | null {
  const position = diff.firstDivergence;
  if (position === null) return null;
  return { position, baseline: baseline?.[position] ?? null, candidate: candidate?.[position] ?? null };
}

/**
 * The whole comparison in one line: "Baseline: 3 calls, 1 failed · Candidate: 5 calls · first difference at
 * call 2: get_bucket vs list_buckets".
 */
export function describeTrajectoryDiff(
  diff: TrajectoryDiff,
  baseline: readonly ToolCall[] | null,
  candidate: readonly ToolCall[] | null,
): string {
  const parts = [`Baseline: ${sideText(diff.counts.baseline)}`, `Candidate: ${sideText(diff.counts.candidate)}`];
  const at = divergentCalls(diff, baseline, candidate);
  if (at) {
    const what =
      at.baseline && at.candidate && at.baseline.name === at.candidate.name
        ? `${at.baseline.name} with other arguments`
        : `${at.baseline?.name ?? "no call"} vs ${at.candidate?.name ?? "no call"}`;
    parts.push(`first difference at call ${at.position + 1}: ${what}`);
  } else if (baseline !== null && candidate !== null) {
    parts.push(baseline.length === 0 ? "neither called a tool" : "the same calls in the same order");
  }
  return parts.join(" · ");
}

function sideText(counts: TrajectorySideCounts | null): string {
  if (counts === null) return "no tool calls recorded";
  const calls = `${counts.calls.toLocaleString("en-US")} call${counts.calls === 1 ? "" : "s"}`;
  return counts.errors > 0 ? `${calls}, ${counts.errors.toLocaleString("en-US")} failed` : calls;
}

function countsOf(calls: readonly ToolCall[] | null): TrajectorySideCounts | null {
  if (calls === null) return null;
  const durations = calls.flatMap((call) => (call.durationMs === null ? [] : [call.durationMs]));
  return {
    calls: calls.length,
    errors: calls.filter((call) => call.error !== null).length,
    durationMs: durations.length === 0 ? null : durations.reduce((sum, ms) => sum + ms, 0),
  };
}

function nullIfMissing(index: number): number | null {
  return index === -1 ? null : index;
}

function sameCall(a: ToolCall, b: ToolCall): boolean {
  // A call without arguments passed none: the same as an empty object, as the metrics read it.
  return a.name === b.name && pythonEquals(a.arguments ?? {}, b.arguments ?? {});
}

function sameName(a: ToolCall, b: ToolCall): boolean {
  return a.name === b.name;
}

/** Every call of both sides on its row: the shared start and end first, so the table covers only the middle. */
function alignCalls(base: readonly ToolCall[], cand: readonly ToolCall[]): TrajectoryDiffRow[] {
  let start = 0;
  while (start < base.length && start < cand.length && sameCall(base[start], cand[start])) start++;
  let end = 0;
  while (
    end < base.length - start &&
    end < cand.length - start &&
    sameCall(base[base.length - 1 - end], cand[cand.length - 1 - end])
  )
    end++;
  const same = (b: number, c: number): TrajectoryDiffRow => ({ baseline: b, candidate: c, kind: "same" });
  const rows = Array.from({ length: start }, (_, i) => same(i, i));
  const middle = { from: start, baseTo: base.length - end, candTo: cand.length - end };
  const cells = (middle.baseTo - middle.from) * (middle.candTo - middle.from);
  if (cells <= MAX_ALIGNED_CELLS) alignMiddle(base, cand, middle, rows);
  else alignByPosition(base, cand, middle, rows);
  for (let i = end; i > 0; i--) rows.push(same(base.length - i, cand.length - i));
  return rows;
}

type Range = { from: number; baseTo: number; candTo: number };

/** Exactly equal calls by their longest common subsequence; each gap between them paired again by name. */
function alignMiddle(base: readonly ToolCall[], cand: readonly ToolCall[], range: Range, rows: TrajectoryDiffRow[]) {
  const pairs = commonSubsequence(
    base,
    cand,
    { baseFrom: range.from, baseTo: range.baseTo, candFrom: range.from, candTo: range.candTo },
    sameCall,
  );
  let b = range.from;
  let c = range.from;
  for (const [pb, pc] of [...pairs, [range.baseTo, range.candTo] as const]) {
    alignGap(base, cand, { baseFrom: b, baseTo: pb, candFrom: c, candTo: pc }, rows);
    if (pb < range.baseTo) rows.push({ baseline: pb, candidate: pc, kind: "same" });
    b = pb + 1;
    c = pc + 1;
  }
}

type Window = { baseFrom: number; baseTo: number; candFrom: number; candTo: number };

/** A gap between two equal calls: calls of one name paired in order (other arguments), the rest one side's. */
function alignGap(base: readonly ToolCall[], cand: readonly ToolCall[], gap: Window, rows: TrajectoryDiffRow[]) {
  const pairs = commonSubsequence(base, cand, gap, sameName);
  let b = gap.baseFrom;
  let c = gap.candFrom;
  for (const [pb, pc] of [...pairs, [gap.baseTo, gap.candTo] as const]) {
    for (; b < pb; b++) rows.push({ baseline: b, candidate: null, kind: "only_baseline" });
    for (; c < pc; c++) rows.push({ baseline: null, candidate: c, kind: "only_candidate" });
    if (pb < gap.baseTo) rows.push({ baseline: pb, candidate: pc, kind: "other_arguments" });
    b = pb + 1;
    c = pc + 1;
  }
}

/**
 * The index pairs of a longest common subsequence of two windows, in order. Suffix lengths in one table; the
 * walk takes a match whenever the calls match (always optimal) and otherwise skips the baseline's call first
 * when that loses nothing, so its lone calls come before the candidate's.
 */
function commonSubsequence(
  base: readonly ToolCall[],
  cand: readonly ToolCall[],
  w: Window,
  matches: (a: ToolCall, b: ToolCall) => boolean,
): (readonly [number, number])[] {
  const n = w.baseTo - w.baseFrom;
  const m = w.candTo - w.candFrom;
  if (n === 0 || m === 0) return [];
  const width = m + 1;
  const length = new Uint32Array((n + 1) * width);
  const equal = new Uint8Array(n * m);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) {
      const hit = matches(base[w.baseFrom + i], cand[w.candFrom + j]);
      equal[i * m + j] = hit ? 1 : 0;
      length[i * width + j] = hit
        ? length[(i + 1) * width + j + 1] + 1
        : Math.max(length[(i + 1) * width + j], length[i * width + j + 1]);
    }
  const pairs: (readonly [number, number])[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (equal[i * m + j]) {
      pairs.push([w.baseFrom + i, w.candFrom + j]);
      i++;
      j++;
    } else if (length[(i + 1) * width + j] >= length[i * width + j + 1]) i++;
    else j++;
  }
  return pairs;
}

/** Too long to line up: the middle read call by call, each pair same, of one name, or one side's each. */
function alignByPosition(
  base: readonly ToolCall[],
  cand: readonly ToolCall[],
  range: Range,
  rows: TrajectoryDiffRow[],
) {
  const shared = Math.min(range.baseTo, range.candTo);
  for (let i = range.from; i < shared; i++) {
    if (sameName(base[i], cand[i]))
      rows.push({ baseline: i, candidate: i, kind: sameCall(base[i], cand[i]) ? "same" : "other_arguments" });
    else
      rows.push(
        { baseline: i, candidate: null, kind: "only_baseline" },
        { baseline: null, candidate: i, kind: "only_candidate" },
      );
  }
  for (let i = shared; i < range.baseTo; i++) rows.push({ baseline: i, candidate: null, kind: "only_baseline" });
  for (let i = shared; i < range.candTo; i++) rows.push({ baseline: null, candidate: i, kind: "only_candidate" });
}
