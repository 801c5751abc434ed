import { z } from "zod";
import type { ToolCallSettings } from "@/lib/contract/toolCallSettings";
import type { JudgeVerdict } from "@/lib/contract/judgeResult";
import type { JudgeInput } from "../../types";
import { FENCE_RULE } from "../fence";
import type { PromptTemplate } from "../promptTemplate";
import { availableToolsText, expectedCallsText, requestText, toolsCalledText } from "./toolCallText";

/**
 * MLflow 3's tool-call judges, their prompts as MLflow writes them (`mlflow/genai/judges/prompts/
 * tool_call_correctness.py` @ 2bd813cf, `tool_call_efficiency.py` @ 1e69cae3), their answer
 * `{"rationale": "Let's think step by step …", "result": "yes|no"}`. Assay adds only the fence rule
 * (every piece the agent, its tools or the dataset wrote is fenced) and renders the sections through
 * toolCallText.ts. ToolCallCorrectness picks its variant per row as MLflow does: no expected calls, the
 * ground-truth-free prompt; expected calls that all give arguments, the "full" prompt; otherwise the
 * "partial" one (names only). `should_consider_ordering` is the run's setting.
 */
const answerSchema = z.strictObject({
  rationale: z.string().min(1).max(4000),
  result: z.enum(["yes", "no"]),
});
type Answer = z.infer<typeof answerSchema>;

const toVerdict = (answer: Answer): JudgeVerdict => ({
  rating: answer.result,
  score: null,
  rationale: answer.rationale,
  errorMessage: null,
});

const CORRECTNESS_OUTPUT = `Please evaluate whether the agent's tool calls and their arguments are correct and reasonable using only the following json format. Return "yes" if the tool calls and arguments are correct and reasonable, otherwise return "no".
Do not use any markdown formatting or output additional lines.
{
  "rationale": "Reason for the assessment. If incorrect or unreasonable tool calls are found, identify which specific calls or arguments are problematic and explain why. If all tool calls and arguments are correct, explain why they are appropriate. Start each rationale with \`Let's think step by step\`",
  "result": "yes|no"
}`;

const ORDERING_CHECK = "3) Ordering\n- Consider whether the order of tool calls matches the expected order.";
const ORDERING_IGNORE =
  "Note: The order of tool calls does not need to match. You should not penalize the agent for calling tools in a different order than the expected order.";

const GROUND_TRUTH_FREE = {
  preamble: `Consider whether the agent selected appropriate tools and called with the correct arguments for the
task.

Given the user's request, the available tools (including their described capabilities/constraints),
and the sequence of tool calls made by the agent, evaluate if the agent chose suitable tools and
used them in a reasonable way.`,
  criteria: `1) Need for tools
- Was using any tool necessary or helpful for this request?
- Did the agent fail to use an obviously appropriate tool that was available?

2) Tool selection
- For each step, is the chosen tool a good match for the subtask, given the tool descriptions?
- Did the agent avoid tools that are clearly irrelevant, overpowered, or disallowed for the request?

3) Arguments and intent alignment
- Do the arguments match the tool's schema?
- Are the arguments clearly grounded in the user's request and the tool's documented purpose?
- Across calls, are key parameters provided in ways that logically follow from prior tool outputs
or user messages, rather than arbitrary changes?

4) Tool flow and combinations
- When multiple tools are used, is the overall sequence of tool choices logically sound?
- Are follow-up tool calls justified by what the agent appears to be trying to achieve with respect
to the user's request?`,
};

const FULL_EXPECTATIONS = {
  preamble: `Compare the actual tool calls against the expected tool calls to determine if they are correct.

Given the user's request, the expected tool calls (ground truth), and the actual tool calls made
by the agent, evaluate whether the actual tool calls semantically match the expected ones.`,
  criteria: `1) Tool selection match
- Are the same tools being called (or semantically equivalent alternatives)?
- Are there any missing or extra tool calls compared to expectations?

2) Argument match
- Do the actual arguments convey the same intent as the expected arguments, even if phrased
differently?
- Are there any significant differences in argument values that would change the outcome?`,
};

const PARTIAL_EXPECTATIONS = {
  preamble: `Evaluate tool call correctness by comparing tool selection against expected tool names, and
evaluating whether arguments are reasonable.

Given the user's request, the expected tool names (ground truth), the available tools (including
their described capabilities/constraints), and the actual tool calls made by the agent, evaluate
whether the agent selected the correct tools and used reasonable arguments.`,
  criteria: `1) Tool selection match
- Do the actual tool calls match the expected tool names?
- Are there any missing or extra tools compared to expectations?

2) Argument reasonableness
- Are the arguments provided reasonable given the user request and tool definitions?
- Do the arguments match the tool's schema and documented purpose?`,
};

type Context = { toolCalls?: ToolCallSettings } | undefined;

function correctnessTemplate(
  version: string,
  variant: { preamble: string; criteria: string },
  expected: "none" | "with_arguments" | "names",
): PromptTemplate<Answer, Context> {
  return {
    version,
    schemaName: "tool_call_correctness",
    schema: () => answerSchema,
    system: FENCE_RULE,
    render: (input: JudgeInput, context: Context) => {
      const agent = input.agent;
      const ordering = context?.toolCalls?.considerOrdering ? ORDERING_CHECK : ORDERING_IGNORE;
      const expectedSection =
        expected === "none"
          ? ""
          : `<expected_tool_calls>\n${expectedCallsText(agent?.expectedToolCalls ?? [], expected === "with_arguments")}\n</expected_tool_calls>\n\n`;
      return `${variant.preamble}

Focus only on the choice of tools and the arguments passed to them. Do NOT judge whether the tools'
outputs or implementations are correct.

Evaluate:

${variant.criteria}

${ordering}

<request>
${requestText(input)}
</request>

${expectedSection}<actual_tool_calls>
${toolsCalledText(agent?.toolCalls ?? [])}
</actual_tool_calls>

<available_tools>
${availableToolsText(agent?.availableTools ?? [])}
</available_tools>
${CORRECTNESS_OUTPUT}`;
    },
    toVerdict,
  };
}

export const toolCallCorrectnessFree = correctnessTemplate(
  "mlflow.tool_call_correctness.ground_truth_free/v1",
  GROUND_TRUTH_FREE,
  "none",
);
export const toolCallCorrectnessFull = correctnessTemplate(
  "mlflow.tool_call_correctness.full_expectations/v1",
  FULL_EXPECTATIONS,
  "with_arguments",
);
export const toolCallCorrectnessPartial = correctnessTemplate(
  "mlflow.tool_call_correctness.partial_expectations/v1",
  PARTIAL_EXPECTATIONS,
  "names",
);

/** MLflow's variant for the row: ground-truth-free without expectations, "full" when every expected call gives arguments. */
export function toolCallCorrectnessFor(input: JudgeInput): PromptTemplate<Answer, Context> {
  const expected = input.agent?.expectedToolCalls ?? null;
  if (expected === null || expected.length === 0) return toolCallCorrectnessFree;
  return expected.every((call) => call.arguments !== null) ? toolCallCorrectnessFull : toolCallCorrectnessPartial;
}

export const toolCallEfficiency: PromptTemplate<Answer, Context> = {
  version: "mlflow.tool_call_efficiency/v1",
  schemaName: "tool_call_efficiency",
  schema: () => answerSchema,
  system: FENCE_RULE,
  render: (input) => `Consider the agent's tool usage for redundancy and inefficiency.

Given the user's request, the available tools, and the sequence of tools called by the agent, determine whether any tool calls were unnecessary or could have been made more efficient. In your analysis, treat retries caused by temporary tool failures (e.g., timeouts, transient errors) as efficient and not redundant.

Consider in particular:

Calls to the same tool with identical or very similar arguments

Repeated calls to the same tool with the same parameters

Multiple calls that could reasonably have been consolidated into a single call

<request>
${requestText(input)}
</request>

<available_tools>
${availableToolsText(input.agent?.availableTools ?? [])}
</available_tools>

<tools_called>
${toolsCalledText(input.agent?.toolCalls ?? [])}
</tools_called>

Please evaluate whether the agent's tool usage is efficient and free of redundancy using only the following json format. Return "yes" if the tool usage is efficient and free of redundancy, otherwise return "no".
Do not use any markdown formatting or output additional lines.
{
  "rationale": "Reason for the assessment. If redundant tool calls are found, identify which specific calls are redundant and explain why. If no redundancy is found, explain why the tool usage is efficient. Start each rationale with \`Let's think step by step\`",
  "result": "yes|no"
}`,
  toVerdict,
};
