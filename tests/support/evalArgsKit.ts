import { parseEvalArgs, UsageError } from "@/lib/cli/evalArgs";
import type { Aggregate } from "@/lib/metrics/aggregates";

/** The smallest valid `assay eval` argument list; tests append the flags under test. */
export const baseArgs = ["--dataset", "set.jsonl"];

/** The message of the UsageError that parsing `argv` throws; fails when it parses, or throws something else. */
export function usageError(argv: string[]): string {
  try {
    parseEvalArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error("expected a usage error");
}

/** An average aggregate with no errors, skips or pending items; counts default to one row scored `value`. */
export function averageAggregate(
  fields: { metric: string; value: number } & Partial<Omit<Aggregate, "kind">>,
): Aggregate {
  return {
    name: `${fields.metric}/score/average`,
    kind: "average",
    numerator: fields.value,
    denominator: 1,
    errors: 0,
    skipped: 0,
    pending: 0,
    passed: 0,
    failed: 0,
    ...fields,
  };
}
