import type { JudgeVerdict, DetailItem } from "@/lib/contract/judgeResult";
import type { ToolCallSettings } from "@/lib/contract/toolCallSettings";
import type { ExpectedToolCall, ToolCall } from "@/lib/contract/toolCalls";
import { deepEvalToolCorrectness } from "./deepEvalToolCorrectness";
import { mlflowToolCallExactMatch } from "./mlflowExactMatch";
import { canonicalJson } from "./pythonEquality";
import { detectToolCallLoops } from "./toolCallLoops";

const EXACT_MATCH = "agent/ground_truth/tool_call_exact_match";
const TOOL_CORRECTNESS = "agent/ground_truth/tool_correctness";
const NO_TOOL_LOOPS = "agent/trajectory/no_tool_loops";
const TOOL_CALL_COUNT = "agent/tool_call_count";
const TOOL_CALL_METRICS = new Set([EXACT_MATCH, TOOL_CORRECTNESS, NO_TOOL_LOOPS, TOOL_CALL_COUNT]);

/** DeepEval's AgentLoopDetectionMetric's default repetition_threshold. */
export const REPETITION_THRESHOLD = 3;

export function isToolCallMetric(metric: string): boolean {
  return TOOL_CALL_METRICS.has(metric);
}

type RowToolCalls = { called: ToolCall[] | null; expected: ExpectedToolCall[] | null };

/**
 * One tool-call metric of one row, with no model: the verdict, its rationale in words, and the
 * details the drill-down shows (each expected call matched or missed, each repeated call). Planning
 * skips rows without the inputs (rowEligibility); a row without them here is an error, not a guess.
 */
export function scoreToolCallMetric(metric: string, calls: RowToolCalls, settings: ToolCallSettings): JudgeVerdict {
  const { called, expected } = calls;
  if (called === null) return failed("the row has no tool calls: give a trace with TOOL spans or a tool_calls column");
  if (metric === TOOL_CALL_COUNT) {
    const failures = called.filter((call) => call.error !== null).length;
    return {
      rating: null,
      score: called.length,
      rationale: `${called.length} tool call${called.length === 1 ? "" : "s"}${failures > 0 ? `, ${failures} of them failed` : ""}`,
      errorMessage: null,
    };
  }
  if (metric === NO_TOOL_LOOPS) return noToolLoops(called);
  if (expected === null || expected.length === 0) return failed("the row has no expected_tool_calls");
  if (metric === EXACT_MATCH) {
    const result = mlflowToolCallExactMatch(called, expected, { ordered: settings.considerOrdering });
    if (result === null) return failed("the row has no expected_tool_calls");
    return {
      rating: result.rating,
      score: null,
      rationale: result.rationale,
      errorMessage: null,
      details: {
        groups: [sequenceGroup("Expected", expected), sequenceGroup("Called", called)],
        notes: [
          settings.considerOrdering
            ? "Ordered: the calls are compared position by position (should_consider_ordering)."
            : "Unordered: the sets of calls are compared, so a repeated call counts once (MLflow's exact mode).",
          expected.every((call) => call.arguments !== null)
            ? "Arguments compared: every expected call gives them."
            : "Names only: some expected call gives no arguments, so MLflow compares names alone.",
        ],
      },
    };
  }
  if (metric === TOOL_CORRECTNESS) {
    const result = deepEvalToolCorrectness(called, expected, {
      evaluationParams: settings.evaluationParams,
      shouldExactMatch: settings.exactMatch,
      shouldConsiderOrdering: settings.considerOrdering,
    });
    const matchedIndices = new Set(
      result.matches.flatMap((match) => (match.calledIndex === null ? [] : [match.calledIndex])),
    );
    return {
      rating: null,
      score: result.score,
      rationale: result.reason,
      errorMessage: null,
      details: {
        groups: [
          {
            title: "Expected tools",
            items: expected.map((call, index): DetailItem => {
              const match = result.matches.find((each) => each.expectedIndex === index);
              const weight = match?.weight ?? 0;
              return {
                text: callText(call),
                verdict: weight >= 1 ? "yes" : weight > 0 ? "partly" : "no",
                reason:
                  match?.calledIndex != null
                    ? `matched call ${match.calledIndex + 1} (counts ${round(weight)})`
                    : "not matched by any call",
              };
            }),
          },
          {
            title: "Called tools",
            items: called.map((call, index): DetailItem => ({
              text: callText(call),
              verdict: matchedIndices.has(index) ? "matched" : "extra",
              tags: call.error ? [`error: ${call.error}`] : undefined,
            })),
          },
        ],
        figures: { expected: expected.length, called: called.length },
        notes: [
          `DeepEval's ToolCorrectnessMetric: ${settings.exactMatch ? "exact match" : settings.considerOrdering ? "ordered (weighted longest common subsequence)" : "unordered"}, comparing ${
            settings.evaluationParams.length === 0
              ? "names only"
              : `names and ${settings.evaluationParams.join(" and ")}`
          }; the score divides by the expected tools, so extra calls cost nothing.`,
        ],
      },
    };
  }
  return failed(`${metric} is not a tool-call metric`);
}

function noToolLoops(called: ToolCall[]): JudgeVerdict {
  const { loops, repetitionScore } = detectToolCallLoops(called, { repetitionThreshold: REPETITION_THRESHOLD });
  return {
    rating: loops.length === 0 ? "yes" : "no",
    score: null,
    rationale:
      loops.length === 0
        ? `No identical call repeated ${REPETITION_THRESHOLD} or more times in ${called.length} call${called.length === 1 ? "" : "s"}`
        : loops
            .map(
              (loop) =>
                `${callText(loop)} called ${loop.count} times (calls ${loop.positions.map((p) => p + 1).join(", ")})`,
            )
            .join("; "),
    errorMessage: null,
    details: {
      groups:
        loops.length === 0
          ? []
          : [
              {
                title: "Repeated identical calls",
                items: loops.map((loop) => ({
                  text: callText(loop),
                  verdict: `${loop.count}×`,
                  reason: `calls ${loop.positions.map((p) => p + 1).join(", ")}`,
                })),
              },
            ],
      // DeepEval's AgentLoopDetectionMetric's tool repetition part: 1, 0.5 at 3 identical calls, 0 at 6.
      figures: { tool_repetition: repetitionScore },
    },
  };
}

function sequenceGroup(title: string, calls: readonly (ToolCall | ExpectedToolCall)[]) {
  return {
    title,
    items: calls.map((call, index): DetailItem => ({
      text: callText(call),
      verdict: String(index + 1),
      tags: "error" in call && call.error ? [`error: ${call.error}`] : undefined,
    })),
  };
}

/** search({"q": "mlflow"}) or search: how a call is written in rationales and details. */
export function callText(call: { name: string; arguments: Record<string, unknown> | null }): string {
  return call.arguments === null ? call.name : `${call.name}(${canonicalJson(call.arguments)})`;
}

function round(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

function failed(message: string): JudgeVerdict {
  return { rating: null, score: null, rationale: null, errorMessage: message };
}
