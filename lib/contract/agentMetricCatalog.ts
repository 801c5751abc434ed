import type { MetricDefinition } from "./metricDefinition";

/**
 * The metrics of an agent's tool calls (lib/contract/toolCalls.ts), by the upstream that defines each:
 * MLflow 3's ToolCallCorrectness in its exact mode (`should_exact_match=True`, no judge call) and
 * DeepEval's ToolCorrectnessMetric (its deterministic score), both against the row's
 * expected_tool_calls; and, needing nothing but the calls, repeated identical calls (the tool
 * repetition part of DeepEval's AgentLoopDetectionMetric) and the number of calls. None calls an LLM,
 * so all of them run offline. docs/agents.md says what each reads and where Assay departs.
 */
export const AGENT_METRICS: MetricDefinition[] = [
  {
    name: "agent/ground_truth/tool_call_exact_match",
    label: "Tool call exact match (MLflow)",
    question:
      "Did the agent make exactly the expected tool calls? (MLflow's tool_call_correctness, exact mode: same count, names and, where expected, arguments)",
    kind: "ground_truth",
    family: "agent",
    upstream: "mlflow",
    yesNo: true,
    requires: ["tool_calls", "expected_tool_calls"],
    callsPerRow: 0,
  },
  {
    name: "agent/ground_truth/tool_correctness",
    label: "Tool correctness (DeepEval)",
    question: "What share of the expected tools did the agent call? (DeepEval's ToolCorrectnessMetric)",
    kind: "ground_truth",
    family: "agent",
    upstream: "deepeval",
    requires: ["tool_calls", "expected_tool_calls"],
    score: { direction: "higher", defaultThreshold: 0.5 },
    callsPerRow: 0,
  },
  {
    name: "agent/trajectory/no_tool_loops",
    label: "No tool loops",
    question: "Did the agent avoid repeating an identical tool call (same name and arguments) three or more times?",
    kind: "ground_truth",
    yesNo: true,
    family: "agent",
    requires: ["tool_calls"],
    callsPerRow: 0,
  },
  {
    name: "agent/tool_call_count",
    label: "Tool calls",
    question: "How many tools did the agent call?",
    kind: "agent",
    family: "agent",
    requires: ["tool_calls"],
    callsPerRow: 0,
  },
];

/**
 * The LLM judges of an agent's tool calls and trajectory, each as its upstream defines it and calls the model:
 * MLflow 3's ToolCallCorrectness (its judge modes: without expectations, or against expected_tool_calls with
 * or without arguments) and ToolCallEfficiency, yes or no; DeepEval's ArgumentCorrectnessMetric,
 * TaskCompletionMetric and StepEfficiencyMetric, scores with DeepEval's threshold and strict_mode.
 * `callsPerRow` is the upstream's count (DeepEval's reason call included; docs/agents.md).
 */
export const AGENT_LLM_METRICS: MetricDefinition[] = [
  {
    name: "agent/llm_judged/tool_call_correctness",
    label: "Tool call correctness (MLflow)",
    question:
      "Were the right tools called, with sensible arguments, in a sensible order? (against expected_tool_calls where the row has them)",
    kind: "llm_judged",
    family: "agent",
    upstream: "mlflow",
    yesNo: true,
    requires: ["tool_calls"],
    callsPerRow: 1,
  },
  {
    name: "agent/llm_judged/tool_call_efficiency",
    label: "Tool call efficiency (MLflow)",
    question: "Did the agent avoid redundant tool calls (repeats, same or similar arguments, calls that could merge)?",
    kind: "llm_judged",
    family: "agent",
    upstream: "mlflow",
    yesNo: true,
    requires: ["tool_calls"],
    callsPerRow: 1,
  },
  {
    name: "agent/llm_judged/argument_correctness",
    label: "Argument correctness (DeepEval)",
    question: "What share of the tool calls had arguments that fit the input? (DeepEval's ArgumentCorrectnessMetric)",
    kind: "llm_judged",
    family: "agent",
    upstream: "deepeval",
    requires: ["tool_calls"],
    score: { direction: "higher", defaultThreshold: 0.5 },
    callsPerRow: 2,
  },
  {
    name: "agent/llm_judged/task_completion",
    label: "Task completion (DeepEval)",
    question: "How completely did the agent accomplish the task the user gave it? (DeepEval's TaskCompletionMetric)",
    kind: "llm_judged",
    family: "agent",
    upstream: "deepeval",
    requires: ["response"],
    readsTrace: true,
    score: { direction: "higher", defaultThreshold: 0.5 },
    callsPerRow: 2,
  },
  {
    name: "agent/llm_judged/step_efficiency",
    label: "Step efficiency (DeepEval)",
    question: "Did the agent take only the steps the task needed? (DeepEval's StepEfficiencyMetric, from the trace)",
    kind: "llm_judged",
    family: "agent",
    upstream: "deepeval",
    requires: ["trace"],
    readsTrace: true,
    score: { direction: "higher", defaultThreshold: 0.5 },
    callsPerRow: 2,
  },
];
