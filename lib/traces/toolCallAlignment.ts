import type { ExpectedToolCall, ToolCall } from "@/lib/contract/toolCalls";
import { pythonEquals } from "@/lib/metrics/toolCalls/pythonEquality";

/**
 * The expected calls beside the actual ones, for people to read: each expected call paired with the first
 * unpaired actual call of the same name (one with equal arguments first), and said to be matched, called
 * with other arguments, or missing; each actual call left over is extra. This is what the drill-down
 * shows; the metrics keep their own upstream rules (MLflow's sets, DeepEval's partial credit), whose
 * verdicts the judges panel gives.
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
  const argumentsMatch = (want: ExpectedToolCall, got: ToolCall) =>
    want.arguments === null || pythonEquals(want.arguments, got.arguments ?? {});
  const rows = expected.map((want, expectedIndex) => {
    const free = called.flatMap((got, index) => (got.name === want.name && !pairedWith.has(index) ? [index] : []));
    const exact = free.find((index) => argumentsMatch(want, called[index]));
    const index = exact ?? free[0] ?? null;
    if (index !== null) pairedWith.set(index, expectedIndex);
    const status: ExpectedCallStatus = index === null ? "missing" : exact !== undefined ? "matched" : "other_arguments";
    return { call: want, status, calledIndex: index };
  });
  const order = rows.flatMap((row) => (row.calledIndex === null ? [] : [row.calledIndex]));
  return {
    expected: rows,
    called: called.map((call, index) => ({ call, expectedIndex: pairedWith.get(index) ?? null })),
    inOrder: order.every((value, i) => i === 0 || value > order[i - 1]),
  };
}
