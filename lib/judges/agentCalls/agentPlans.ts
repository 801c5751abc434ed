import type { CallPlan } from "../deepEvalCalls/callPlan";
import { reasonFor } from "../deepEvalCalls/callPlan";
import { detailItem, scoreVerdict } from "../prompts/scoreMetrics/shared";
import {
  argumentVerdicts,
  executionEfficiency,
  taskAndOutcomeFromTrace,
  taskAndOutcomeFromWorkflow,
  taskFromTrace,
  taskVerdict,
} from "./agentSteps";

/**
 * DeepEval's agent metrics as DeepEval calls the model, always (they have no folded form): what each call
 * reads and how the score follows (research notes §1.2–1.4). strict_mode is applied after, as for every
 * DeepEval metric (engine/judgeItem.ts); the reason follows include_reason.
 *
 *   argument_correctness  verdicts (+ reason); none without tool calls     1 (2), 0
 *   task_completion       task and outcome, verdict                        2
 *   step_efficiency       task, execution efficiency                       2
 */
const argumentCorrectness: CallPlan = async (context) => {
  const calls = context.input.agent?.toolCalls ?? [];
  // DeepEval: "No tool calls provided", score 1, no call.
  if (calls.length === 0) return scoreVerdict(1, "No tool calls provided", [], { tool_calls: 0 });
  const { verdicts } = await context.call(argumentVerdicts, { calls: calls.length });
  const judged = verdicts.length;
  // "idk" counts as correct: the score is the share of verdicts that are not "no".
  const score = judged === 0 ? 1 : verdicts.filter((v) => v.verdict !== "no").length / judged;
  const reason = await reasonFor(context, {
    metric: "argument correctness",
    score,
    lowerIsBetter: false,
    heading: "Tool calls whose arguments do not fit the input",
    points: verdicts.flatMap((v, i) =>
      v.verdict === "no" ? [`${calls[i].name}: ${v.reason ?? "no reason given"}`] : [],
    ),
  });
  return scoreVerdict(
    score,
    reason,
    [
      {
        title: "Tool calls",
        items: calls.map((call, i) =>
          detailItem(
            `${call.name}(${JSON.stringify(call.arguments ?? {})})`,
            verdicts[i]?.verdict ?? "–",
            verdicts[i]?.reason ?? null,
          ),
        ),
      },
    ],
    { tool_calls: calls.length, incorrect: verdicts.filter((v) => v.verdict === "no").length },
  );
};

const taskCompletion: CallPlan = async (context) => {
  const fromTrace = context.input.agent?.traceTree != null;
  const { task, outcome } = await context.call(
    fromTrace ? taskAndOutcomeFromTrace : taskAndOutcomeFromWorkflow,
    undefined,
  );
  const verdict = await context.call(taskVerdict, { task, outcome });
  return scoreVerdict(
    verdict.verdict,
    context.settings.includeReason ? verdict.reason : undefined,
    [
      {
        title: "Task and outcome",
        items: [detailItem(task, "task", null), detailItem(outcome, "outcome", null)],
      },
    ],
    {},
    fromTrace
      ? []
      : [
          "No trace: the task and outcome were read from the input, the tools called and the response (DeepEval's path without a trace).",
        ],
  );
};

const stepEfficiency: CallPlan = async (context) => {
  const { task } = await context.call(taskFromTrace, undefined);
  const efficiency = await context.call(executionEfficiency, { task });
  return scoreVerdict(
    efficiency.score,
    context.settings.includeReason ? efficiency.reason : undefined,
    [{ title: "Task", items: [detailItem(task, "task", null)] }],
    {},
  );
};

export const AGENT_CALL_PLANS: Partial<Record<string, CallPlan>> = {
  "agent/llm_judged/argument_correctness": argumentCorrectness,
  "agent/llm_judged/task_completion": taskCompletion,
  "agent/llm_judged/step_efficiency": stepEfficiency,
};
