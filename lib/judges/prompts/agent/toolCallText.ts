import type { AvailableTool, ExpectedToolCall, ToolCall } from "@/lib/contract/toolCalls";
import type { JudgeInput } from "../../types";
import { fence } from "../fence";
import { conversationSection } from "../sections";

/**
 * An agent's tools as MLflow's judge prompts lay them out (`mlflow/genai/judges/utils/formatting_utils.py`:
 * `format_available_tools`, `format_tools_called`; `_format_expected_calls` in its tool_call_correctness
 * prompt), each piece the agent or the dataset wrote fenced. One difference: arguments and outputs are
 * written as JSON where MLflow prints Python's repr of the dict (`{'q': 'a'}`); a model reads both alike.
 */
export function toolsCalledText(calls: readonly ToolCall[]): string {
  if (calls.length === 0) return "No tools called";
  return calls
    .map((call, index) => {
      const lines = [
        `Tool Call ${index + 1}: ${call.name}`,
        `  Input Arguments: ${JSON.stringify(call.arguments ?? {})}`,
        `  Output: ${call.output === null ? "(no output)" : typeof call.output === "string" ? call.output : JSON.stringify(call.output)}`,
        ...(call.error ? [`  Exception: ${call.error}`] : []),
      ];
      return fence("tool_call", lines.join("\n"), { index: index + 1 });
    })
    .join("\n\n");
}

export function availableToolsText(tools: readonly AvailableTool[]): string {
  if (tools.length === 0) return "No tools available";
  return fence(
    "available_tools",
    tools
      .map((tool) => {
        const head = `- ${tool.name}${tool.description ? `: ${tool.description}` : ""}`;
        return [head, ...parameterLines(tool.parameters)].join("\n");
      })
      .join("\n\n"),
  );
}

function parameterLines(parameters: unknown): string[] {
  if (!isRecord(parameters) || !isRecord(parameters.properties)) return [];
  const required = new Set(Array.isArray(parameters.required) ? parameters.required.map(String) : []);
  return Object.entries(parameters.properties).map(([name, property]) => {
    const described = isRecord(property) ? property : {};
    return `    - ${name}${required.has(name) ? " (required)" : " (optional)"}${
      typeof described.type === "string" ? `: ${described.type}` : ""
    }${typeof described.description === "string" ? ` - ${described.description}` : ""}`;
  });
}

export function expectedCallsText(calls: readonly ExpectedToolCall[], includeArguments: boolean): string {
  if (calls.length === 0) return "No expected tool calls provided.";
  return fence(
    "expected_tool_calls",
    calls
      .flatMap((call, index) =>
        includeArguments
          ? [
              `Expected Tool Call ${index + 1}: ${call.name}`,
              `  Arguments: ${call.arguments && Object.keys(call.arguments).length > 0 ? JSON.stringify(call.arguments) : "empty"}`,
            ]
          : [`Expected Tool ${index + 1}: ${call.name}`],
      )
      .join("\n"),
  );
}

/** MLflow's `request`: the user's request, or the whole conversation when there are earlier turns. */
export function requestText(input: JudgeInput): string {
  return conversationSection(input);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
