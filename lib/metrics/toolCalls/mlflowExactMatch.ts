import type { ExpectedToolCall, ToolCall } from "@/lib/contract/toolCalls";
import { canonicalJson, compareCodePoints, pythonJsonDumps } from "@/lib/metrics/toolCalls/pythonEquality";

/**
 * MLflow's ToolCallCorrectness with `should_exact_match=True` (no judge call), transcribed from mlflow/mlflow
 * `mlflow/genai/scorers/builtin_scorers.py` (the ~114 KB ≥ 3.9 version; `ToolCallCorrectness.__call__`,
 * `_evaluate_exact_ordered`, `_evaluate_exact_unordered`) and the helpers `parse_tool_call_expectations`,
 * `normalize_tool_call_arguments` and `get_tool_call_signature` (in `mlflow/genai/scorers/scorer_utils.py`;
 * the index gives no commit for either version read).
 *
 * What the source settles:
 * - `include_arguments = not any(call.arguments is None for call in expected_calls)` is decided ONCE for the
 *   whole row, from the expected calls only. If any expected call has no arguments, every signature on both
 *   sides is the bare name, so expected {name: "search"} matches a call search({"q": 1}). If every expected
 *   call has arguments, every signature on both sides is `name(json.dumps(arguments or {}, sort_keys=True))`;
 *   an actual call without arguments reads as {} (normalize_tool_call_arguments).
 * - Signatures are compared as strings, not with Python `==`: {"k": 1} and {"k": true} differ ("1" vs "true").
 * - Different lengths give "no" before any comparison. Ordered: signatures position by position. Unordered:
 *   SET equality, so duplicates collapse: [A, A, B] vs [A, B, B] is "yes".
 * - An empty (or absent) expected list is treated as no expectations; in exact mode MLflow then raises
 *   ("should_exact_match=True requires expectations"). Here: `null`, so the caller can skip the row.
 *
 * Rationales are MLflow's texts. One departure: Python prints the Missing/Unexpected sets in a hash-seeded
 * order that changes from run to run; here their items are sorted, for a stable text.
 */

export type MlflowExactMatchResult = { rating: "yes" | "no"; rationale: string };

type Call = { name: string; arguments: Record<string, unknown> | null };

/** `get_tool_call_signature(call, include_arguments)`. */
export function mlflowToolCallSignature(call: Call, includeArguments: boolean): string {
  return includeArguments ? `${call.name}(${canonicalJson(call.arguments ?? {})})` : call.name;
}

/**
 * Python's `repr(str)`: single quotes unless the text has a ' and no "; backslash, the quote, \t \n \r
 * escaped; other control characters as \xhh; non-ASCII kept when printable (Unicode categories other than
 * C* and Z*, the space excepted), else \xhh, \uhhhh or \Uhhhhhhhh.
 */
export function pythonStrRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const hex = (code: number, width: number) => code.toString(16).padStart(width, "0");
  let out = quote;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === quote || char === "\\") out += `\\${char}`;
    else if (char === "\t") out += "\\t";
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (code < 0x20 || code === 0x7f) out += `\\x${hex(code, 2)}`;
    else if (code < 0x7f || !/[\p{C}\p{Z}]/u.test(char)) out += char;
    else if (code <= 0xff) out += `\\x${hex(code, 2)}`;
    else if (code <= 0xffff) out += `\\u${hex(code, 4)}`;
    else out += `\\U${hex(code, 8)}`;
  }
  return out + quote;
}

/** Python's repr of a set of str, items sorted (see the departure above). */
function setRepr(items: Set<string>): string {
  return `{${[...items].sort(compareCodePoints).map(pythonStrRepr).join(", ")}}`;
}

function exactOrdered(actual: Call[], expected: Call[], includeArguments: boolean): MlflowExactMatchResult {
  const mismatches: string[] = [];
  expected.forEach((want, index) => {
    const got = actual[index];
    if (mlflowToolCallSignature(got, includeArguments) === mlflowToolCallSignature(want, includeArguments)) return;
    // The rationale dumps arguments without sort_keys, in their own key order (as the source does).
    mismatches.push(
      includeArguments
        ? `Position ${index + 1}: expected ${want.name}(${pythonJsonDumps(want.arguments ?? {})}), ` +
            `got ${got.name}(${pythonJsonDumps(got.arguments ?? {})})`
        : `Position ${index + 1}: expected ${want.name}, got ${got.name}`,
    );
  });
  if (mismatches.length > 0) {
    return { rating: "no", rationale: `Tool calls do not match in order: ${mismatches.join("; ")}` };
  }
  return { rating: "yes", rationale: "All tool calls match expected sequence exactly." };
}

function exactUnordered(actual: Call[], expected: Call[], includeArguments: boolean): MlflowExactMatchResult {
  const actualSet = new Set(actual.map((call) => mlflowToolCallSignature(call, includeArguments)));
  const expectedSet = new Set(expected.map((call) => mlflowToolCallSignature(call, includeArguments)));
  const missing = new Set([...expectedSet].filter((signature) => !actualSet.has(signature)));
  const extra = new Set([...actualSet].filter((signature) => !expectedSet.has(signature)));
  if (missing.size === 0 && extra.size === 0) {
    return { rating: "yes", rationale: "All expected tool calls present (order ignored)." };
  }
  const parts: string[] = [];
  if (missing.size > 0) parts.push(`Missing: ${setRepr(missing)}`);
  if (extra.size > 0) parts.push(`Unexpected: ${setRepr(extra)}`);
  return { rating: "no", rationale: parts.join("; ") };
}

/** null when `expected` is empty: MLflow reads that as "no expectations" and raises in exact mode. */
export function mlflowToolCallExactMatch(
  called: ToolCall[],
  expected: ExpectedToolCall[],
  options: { ordered: boolean },
): MlflowExactMatchResult | null {
  if (expected.length === 0) return null;
  const includeArguments = expected.every((call) => call.arguments !== null);
  if (called.length !== expected.length) {
    return {
      rating: "no",
      rationale: `Expected ${expected.length} tool call(s), but got ${called.length} tool call(s).`,
    };
  }
  return options.ordered
    ? exactOrdered(called, expected, includeArguments)
    : exactUnordered(called, expected, includeArguments);
}
