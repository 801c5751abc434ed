import { fence } from "../prompts/fence";
import type { JudgeInput } from "../types";

/**
 * DeepEval's test-case fields that G-Eval reads besides the text: the trace's metadata and tags (LLMTestCase
 * `metadata` and `tags`), the tools expected and those called (`expected_tools`, `tools_called`, each a
 * ToolCall as DeepEval's model serialises it: name, input_parameters, output). Each is fenced JSON.
 */
export function metadataSection(input: JudgeInput): string {
  return fence("metadata", JSON.stringify(input.agent?.traceInfo?.metadata ?? {}, null, 2));
}

export function tagsSection(input: JudgeInput): string {
  return fence("tags", JSON.stringify(input.agent?.traceInfo?.tags ?? {}, null, 2));
}

export function toolsCalledSection(input: JudgeInput): string {
  const calls = (input.agent?.toolCalls ?? []).map((call) => ({
    name: call.name,
    input_parameters: call.arguments ?? {},
    ...(call.output !== null && call.output !== undefined ? { output: call.output } : {}),
  }));
  return fence("tools_called", JSON.stringify(calls, null, 2));
}

export function expectedToolsSection(input: JudgeInput): string {
  const calls = (input.agent?.expectedToolCalls ?? []).map((call) => ({
    name: call.name,
    ...(call.arguments !== null ? { input_parameters: call.arguments } : {}),
    ...(call.output !== null && call.output !== undefined ? { output: call.output } : {}),
  }));
  return fence("expected_tools", JSON.stringify(calls, null, 2));
}
