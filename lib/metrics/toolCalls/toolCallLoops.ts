import type { ToolCall } from "@/lib/contract/toolCalls";
import { pythonEquals } from "@/lib/metrics/toolCalls/pythonEquality";

/**
 * The tool-repetition component of DeepEval's AgentLoopDetectionMetric (`_score_tool_repetition`, weight 0.40
 * of that metric), from confident-ai/deepeval `deepeval/metrics/agent_loop_detection/agent_loop_detection.py`
 * @ 09444d02dab5:
 * - no tool spans: 1.0;
 * - calls are counted per (name, arguments); only the MOST repeated one decides:
 *   count >= repetition_threshold * 2 → 0.0, count >= repetition_threshold → 0.5, else 1.0
 *   (default repetition_threshold=3: 3–5 identical calls → 0.5, 6 or more → 0);
 * - repetitions need not be consecutive: the count is over the whole trace.
 *
 * How "identical" differs (a departure, kept on purpose). DeepEval's key is
 * `(name, tuple(sorted((str(k), str(v)) for k, v in input.items())))` on the span's `input` dict (a string
 * input is json.loads-ed first; a non-dict input keys as `(str(input),)`). Python's `str()` of each top-level
 * value makes 1 and 1.0 differ ("1" vs "1.0"), true and "True" equal, and nested dicts depend on key order.
 * Assay keys on the name and Python `==` of the arguments instead (1 == 1.0 == True, key order irrelevant at
 * every depth), which agrees with DeepEval on flat arguments of one type each, the common case.
 * null arguments count as {}: DeepEval's trace dict drops None values and reads a missing input as {}.
 */

export type ToolCallLoop = {
  name: string;
  /** The arguments of the first call of the group. */
  arguments: Record<string, unknown> | null;
  count: number;
  /** Indices into `called`, in call order. */
  positions: number[];
};

export type ToolCallLoopResult = { loops: ToolCallLoop[]; repetitionScore: 1 | 0.5 | 0 };

/**
 * `loops`: every group of identical calls repeated at least `repetitionThreshold` times (the ones that cost
 * score), most repeated first, then by first position (Python's max() keeps the first of equal counts).
 */
export function detectToolCallLoops(
  called: ToolCall[],
  { repetitionThreshold = 3 }: { repetitionThreshold?: number } = {},
): ToolCallLoopResult {
  const groups: ToolCallLoop[] = [];
  called.forEach((call, position) => {
    const args = call.arguments ?? {};
    const group = groups.find((each) => each.name === call.name && pythonEquals(each.arguments ?? {}, args));
    if (group) {
      group.count += 1;
      group.positions.push(position);
    } else {
      groups.push({ name: call.name, arguments: call.arguments, count: 1, positions: [position] });
    }
  });
  const maxCount = groups.reduce((max, group) => Math.max(max, group.count), 0);
  const repetitionScore =
    maxCount === 0 ? 1 : maxCount >= repetitionThreshold * 2 ? 0 : maxCount >= repetitionThreshold ? 0.5 : 1;
  const loops = groups
    .filter((group) => group.count >= repetitionThreshold)
    .sort((a, b) => b.count - a.count || a.positions[0] - b.positions[0]);
  return { loops, repetitionScore };
}
