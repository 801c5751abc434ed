import type { ConversationSettings } from "@/lib/contract/conversationSettings";
import { TOOL_CALL_PARAMS, type ToolCallParam, type ToolCallSettingsInput } from "@/lib/contract/toolCallSettings";

/**
 * The agent and conversation metrics' options on the command line, by the upstream names; the parseArgs options
 * they need.
 */
export const AGENT_OPTIONS = {
  "tool-ordering": { type: "boolean" },
  "tool-params": { type: "string" },
  "tool-exact-match": { type: "boolean" },
  guideline: { type: "string", multiple: true },
} as const;

export const AGENT_USAGE = `  --tool-ordering         should_consider_ordering: the tools must be called in the expected order
                          (tool_call_exact_match position by position; tool_correctness by longest
                          common subsequence)
  --tool-params P         DeepEval's evaluation_params for tool_correctness: input_parameters, output or
                          both, comma-separated (default: names only)
  --tool-exact-match      DeepEval's should_exact_match for tool_correctness: 1 only for exactly the
                          expected calls in order, else 0
  --guideline TEXT        MLflow's conversational_guidelines: a guideline every assistant turn must follow;
                          repeatable (the metric needs at least one)`;

type ToolCallFlags = { "tool-ordering"?: boolean; "tool-params"?: string; "tool-exact-match"?: boolean };

/** The run's tool-call settings from the flags (undefined when none is given), or the problem to show. */
export function parseToolCallFlags(flags: ToolCallFlags): { settings?: ToolCallSettingsInput } | { problem: string } {
  const params: ToolCallParam[] = [];
  for (const raw of (flags["tool-params"] ?? "").split(",")) {
    const name = raw.trim().toLowerCase();
    if (name === "") continue;
    const param = TOOL_CALL_PARAMS.find((candidate) => candidate === name);
    if (!param) return { problem: `--tool-params: "${raw.trim()}" is not one of ${TOOL_CALL_PARAMS.join(", ")}` };
    params.push(param);
  }
  const settings: ToolCallSettingsInput = {
    ...(flags["tool-ordering"] ? { considerOrdering: true } : {}),
    ...(params.length > 0 ? { evaluationParams: [...new Set(params)] } : {}),
    ...(flags["tool-exact-match"] ? { exactMatch: true } : {}),
  };
  return Object.keys(settings).length > 0 ? { settings } : {};
}

/** --guideline, repeatable: the run's conversation settings, or undefined without any. */
export function parseGuidelines(flags: { guideline?: string[] }): ConversationSettings | undefined {
  const guidelines = (flags.guideline ?? []).map((text) => text.trim()).filter((text) => text !== "");
  return guidelines.length > 0 ? { guidelines } : undefined;
}
