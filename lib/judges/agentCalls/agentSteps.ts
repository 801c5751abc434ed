import { z } from "zod";
import type { ToolCall } from "@/lib/contract/toolCalls";
import type { JudgeInput } from "../types";
import { fence, FENCE_RULE } from "../prompts/fence";
import type { PromptCall } from "../prompts/promptTemplate";
import { conversationSection } from "../prompts/sections";

/**
 * The calls of DeepEval's agent metrics, each prompt carrying its DeepEval template's instructions, scale and
 * answer keys (confident-ai/deepeval `deepeval/metrics/{argument_correctness,task_completion,step_efficiency}/
 * templates/*.txt`, read at 42fb6abd / 8b225c97), shortened where the template spends pages on a worked
 * example, and with every piece the agent or the dataset wrote fenced. The trace is DeepEval's nested span dict
 * (lib/traces/deepEvalTraceDict.ts), as its `_trace_dict` would give it.
 */
const text = z.string().min(1).max(4000);
const unitScore = z.number().min(0).max(1);

const JSON_ONLY = "Return only valid JSON; close every string; no markdown.";

function traceSection(input: JudgeInput): string {
  return fence("trace", JSON.stringify(input.agent?.traceTree ?? null, null, 2));
}

/** DeepEval's ToolCall as its prompts show it: the name and input_parameters (and the output, where a template asks). */
function toolCallsSection(calls: readonly ToolCall[], withOutput: boolean): string {
  return calls
    .map((call, index) =>
      fence(
        "tool_call",
        JSON.stringify(
          {
            name: call.name,
            input_parameters: call.arguments ?? {},
            ...(withOutput && call.output !== null ? { output: call.output } : {}),
          },
          null,
          2,
        ),
        { index: index + 1 },
      ),
    )
    .join("\n\n");
}

/** ArgumentCorrectnessMetric, `generate_verdicts`: one verdict per tool call, a reason only for "no". */
export const argumentVerdicts: PromptCall<
  { verdicts: { verdict: "yes" | "no" | "idk"; reason?: string }[] },
  { calls: number }
> = {
  version: "deepeval.argument_correctness.verdicts/v1",
  schemaName: "argument_verdicts",
  schema: (_input, context) =>
    z.strictObject({
      verdicts: z
        .array(z.strictObject({ verdict: z.enum(["yes", "no", "idk"]), reason: text.optional() }))
        .length(context.calls),
    }),
  system: [
    "For the provided list of tool calls, determine whether each tool call's input parameters relevantly and correctly address the input.",
    "The verdict is STRICTLY 'yes' or 'no': 'yes' if the tool call's input parameters relevantly and correctly address the original input, 'no' if they do not. Give a 'reason' ONLY when the answer is 'no'.",
    'If a tool call has no input parameters, answer "no" with the reason "No input parameter provided".',
    "The number of verdicts must be STRICTLY EQUAL to the number of tool calls, in their order.",
    FENCE_RULE,
    `${JSON_ONLY} {"verdicts": [{"verdict": "yes"}, {"verdict": "no", "reason": "..."}]}`,
  ].join("\n"),
  render: (input) =>
    [
      `Input:\n${conversationSection(input)}`,
      `Tool Calls:\n${toolCallsSection(input.agent?.toolCalls ?? [], false)}`,
    ].join("\n\n"),
};

/** TaskCompletionMetric's first call with a trace (`extract_task_and_outcome_from_trace`). */
export const taskAndOutcomeFromTrace: PromptCall<{ task: string; outcome: string }, undefined> = {
  version: "deepeval.task_completion.task_and_outcome_from_trace/v1",
  schemaName: "task_and_outcome",
  schema: () => z.strictObject({ task: text, outcome: text }),
  system: [
    "Given a nested workflow trace whose spans may be of type `agent`, `tool`, `llm`, `retriever`, or `custom`, identify:",
    "1. task: the task or objective expressed by the user in the root agent's input.",
    "2. outcome: a strictly factual description of what the system did, based only on the trace.",
    'The task outcome should be solely factual, derived strictly from the trace. Do not include subjective language such as "successfully", "efficiently", or "well". Enumerate each relevant action or output the trace shows, in plain language.',
    FENCE_RULE,
    `${JSON_ONLY} Return two keys: {"task": "...", "outcome": "..."}`,
  ].join("\n"),
  render: (input) => `trace:\n${traceSection(input)}`,
};

/** TaskCompletionMetric's first call without a trace (`extract_goal_and_outcome`): input, tools called, response. */
export const taskAndOutcomeFromWorkflow: PromptCall<{ task: string; outcome: string }, undefined> = {
  version: "deepeval.task_completion.goal_and_outcome/v1",
  schemaName: "task_and_outcome",
  schema: () => z.strictObject({ task: text, outcome: text }),
  system: [
    "Given an agentic workflow comprised of a human input, AI response, and tools used by the AI, identify the task (or objective the user wants to achieve) and the task_outcome (the final outcome or result of the workflow).",
    "The task outcome should be solely factual, derived strictly from the workflow (input, response, and tools called), without any reasoning involved.",
    FENCE_RULE,
    `${JSON_ONLY} Return two keys: {"task": "...", "outcome": "..."}`,
  ].join("\n"),
  render: (input) =>
    [
      `input:\n${conversationSection(input)}`,
      `tools called:\n${toolCallsSection(input.agent?.toolCalls ?? [], true) || "(none)"}`,
      `response:\n${fence("response", input.response ?? "")}`,
    ].join("\n\n"),
};

/** TaskCompletionMetric's verdict (`generate_verdict`): how well the outcome achieves the task, 0 to 1. */
export const taskVerdict: PromptCall<{ verdict: number; reason: string }, { task: string; outcome: string }> = {
  version: "deepeval.task_completion.verdict/v1",
  schemaName: "task_verdict",
  schema: () => z.strictObject({ verdict: unitScore, reason: text }),
  system: [
    "Given the task (desired outcome) and the actual achieved outcome, compare how well the actual outcome aligns with the desired task.",
    "The `verdict` is a score from 0 to 1, where 1 indicates the actual outcome perfectly achieves the desired task, and 0 indicates it does not achieve the task at all. The `reason` explains why the verdict was assigned.",
    FENCE_RULE,
    `${JSON_ONLY} {"verdict": 0.85, "reason": "..."}`,
  ].join("\n"),
  render: (_input, context) =>
    [`Task:\n${fence("task", context.task)}`, `Actual outcome:\n${fence("outcome", context.outcome)}`].join("\n\n"),
};

/** StepEfficiencyMetric's first call (`extract_task_from_trace`): what the user asked, from the root input. */
export const taskFromTrace: PromptCall<{ task: string }, undefined> = {
  version: "deepeval.step_efficiency.task_from_trace/v1",
  schemaName: "task_from_trace",
  schema: () => z.strictObject({ task: text }),
  system: [
    "You are a trace analyst extracting the user's original goal or task from a complete nested execution trace of an AI agent.",
    "Describe exactly what the user asked the agent to do, derived directly and primarily from the root agent's `input` (inside nested `input` or `messages`, the true user request).",
    "Child spans may only clarify what the user explicitly asked; do not invent goals, assumptions or needs; keep a vague request vague; ignore the agent's tools, methods and reasoning; state the task from the user's perspective, without meta phrasing.",
    "If the only information is the raw user input text, return it verbatim. When uncertain, extract less rather than more.",
    FENCE_RULE,
    `${JSON_ONLY} {"task": "<one or two sentences>"}`,
  ].join("\n"),
  render: (input) => `TRACE DATA:\n${traceSection(input)}`,
};

/** StepEfficiencyMetric's score (`get_execution_efficiency`): adversarial, on DeepEval's five-level scale. */
export const executionEfficiency: PromptCall<{ score: number; reason: string }, { task: string }> = {
  version: "deepeval.step_efficiency.execution_efficiency/v1",
  schemaName: "execution_efficiency",
  schema: () => z.strictObject({ score: unitScore, reason: text }),
  system: [
    "You are an efficiency auditor evaluating how economically an AI agent executed a task, from its full execution trace.",
    "Efficiency means achieving the user's goal using the fewest, simplest and most direct actions possible. You are not evaluating correctness, completeness, creativity or helpfulness, only efficiency.",
    "Rules: every step, tool call, LLM query or retrieval must be strictly required; any superfluous, speculative, repetitive or stylistic step lowers the score; enrichment (extra retrievals, style edits, rephrasings) lowers it sharply (at most 0.25); repetition, re-querying, loops or needless tool reuse are inefficient; using several LLM calls, retrievers or tools where one would do is penalised.",
    "If it is unclear whether an action was required, assume it was unnecessary and lower the score. When uncertain, always assign the lower score.",
    "Scale: 1.0 perfectly efficient (only essential steps); 0.75 strong (one small redundant or stylistic step); 0.5 moderate (noticeable extra steps or indirect methods); 0.25 low (multiple irrelevant or unjustified actions); 0.0 highly inefficient (most actions unnecessary).",
    "The reason: 1 to 3 concise factual sentences naming the inefficient actions.",
    FENCE_RULE,
    `${JSON_ONLY} {"score": 0.0, "reason": "..."}`,
  ].join("\n"),
  render: (input, context) => [`TASK:\n${fence("task", context.task)}`, `TRACE:\n${traceSection(input)}`].join("\n\n"),
};
