import { parseEvalArgs, UsageError } from "@/lib/cli/evalArgs";

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
