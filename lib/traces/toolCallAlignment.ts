import type { ExpectedToolCall, ToolCall } from "@/lib/contract/toolCalls";
import { pythonEquals } from "@/lib/metrics/toolCalls/pythonEquality";

/**
 * The expected calls beside the actual ones, for people to read: each expected call paired with an unpaired
 * actual call of the same name and said to be matched, called with other arguments, or missing; each actual
 * call left over is extra. Equal calls are paired first (then an expected call that gives no arguments takes
 * any call of its name), so a near miss earlier in the list never takes the call a later expected call
 * equals; among candidates the earliest call wins. This is what the drill-down shows; the metrics keep
 * their own upstream rules (MLflow's sets, DeepEval's partial credit), whose verdicts the judges panel gives.
 */
export type ExpectedCallStatus = "matched" | "other_arguments" | "missing";
export type ToolCallAlignment = {
  expected: { call: ExpectedToolCall; status: ExpectedCallStatus; calledIndex: number | null }[];
  called: { call: ToolCall; expectedIndex: number | null }[];
  /** Whether the paired calls came in the expected order. */
  inOrder: boolean;
};

export function alignToolCalls(called: readonly ToolCall[], expected: readonly ExpectedToolCall[]): ToolCallAlignment {
  const pairedWith = new Map<number, number>();
  const calledIndexOf = new Map<number, number>();
  const matched = new Set<number>();
  const pair = (expectedIndex: number, accepts: (got: ToolCall) => boolean) => {
    const name = expected[expectedIndex].name;
    const index = called.findIndex((got, i) => got.name === name && !pairedWith.has(i) && accepts(got));
    if (index === -1) return false;
    pairedWith.set(index, expectedIndex);
    calledIndexOf.set(expectedIndex, index);
    return true;
  };
  expected.forEach((want, i) => {
    if (want.arguments !== null && pair(i, (got) => pythonEquals(want.arguments, got.arguments ?? {}))) matched.add(i);
  });
  expected.forEach((want, i) => {
    if (want.arguments === null && pair(i, () => true)) matched.add(i);
  });
  expected.forEach((_, i) => {
    if (!calledIndexOf.has(i)) pair(i, () => true);
  });
  const rows = expected.map((want, expectedIndex) => {
    const index = calledIndexOf.get(expectedIndex) ?? null;
    const status: ExpectedCallStatus =
      index === null ? "missing" : matched.has(expectedIndex) ? "matched" : "other_arguments";
    return { call: want, status, calledIndex: index };
  });
  const order = rows.flatMap((row) => (row.calledIndex === null ? [] : [row.calledIndex]));
  return {
    expected: rows,
    called: called.map((call, index) => ({ call, expectedIndex: pairedWith.get(index) ?? null })),
    inOrder: order.every((value, i) => i === 0 || value > order[i - 1]),
  };
}
