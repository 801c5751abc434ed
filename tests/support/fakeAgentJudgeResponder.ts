import { createHash } from "node:crypto";
import type { Responder } from "./fakeOpenAIServer";
import { fencedContents } from "./fenced";

/**
 * Makes the fake OpenAI server answer the agent judges (lib/judges/prompts/agent, lib/judges/agentCalls) from
 * markers in what they read:
 *   tool_call_correctness, tool_call_efficiency   "no" when a fenced tool call says WRONG (efficiency: REPEAT)
 *   argument_verdicts                             one verdict per fenced tool call: WRONG → no, MAYBE → idk
 *   task_and_outcome                              the task and outcome, naming the fenced trace's span count
 *   task_verdict                                  0.25 when the outcome mentions FAILED, else 0.75
 *   task_from_trace, execution_efficiency         the task; 0.5 when the trace shows REPEAT, else 1
 * Any other request gets undefined (compose with the other responders).
 */
export const fakeAgentJudgeResponder: Responder = (body) => {
  const schemaName: string = body.response_format?.json_schema?.name ?? "";
  const prompt = (body.messages as { role: string; content: string }[])
    .filter((m) => m.role === "user")
    .map((m) => m.content)
    .join("\n");
  const calls = fencedContents(prompt, "tool_call");
  const trace = fencedContents(prompt, "trace")[0] ?? "";
  switch (schemaName) {
    case "tool_call_correctness":
      return JSON.stringify({
        rationale: "Let's think step by step: the calls were compared.",
        result: calls.some((call) => call.includes("WRONG")) ? "no" : "yes",
      });
    case "tool_call_efficiency":
      return JSON.stringify({
        rationale: "Let's think step by step: the calls were checked for repeats.",
        result: calls.some((call) => call.includes("REPEAT")) ? "no" : "yes",
      });
    case "argument_verdicts":
      return JSON.stringify({
        verdicts: calls.map((call, i) =>
          call.includes("WRONG")
            ? { verdict: "no", reason: `call ${i + 1} is wrong` }
            : { verdict: call.includes("MAYBE") ? "idk" : "yes" },
        ),
      });
    case "task_and_outcome":
      return JSON.stringify({
        // Each row's own task, so no two rows' verdict prompts are the same (the judge cache would answer one).
        task: `Answer request ${createHash("sha256").update(prompt).digest("hex").slice(0, 8)}.`,
        outcome: `The system ran ${(trace.match(/"name"/g) ?? []).length} spans.${prompt.includes("FAILED") ? " A tool FAILED." : ""}`,
      });
    case "task_verdict":
      return JSON.stringify({
        verdict: prompt.includes("FAILED") ? 0.25 : 0.75,
        reason: "Compared the outcome with the task.",
      });
    case "task_from_trace":
      return JSON.stringify({ task: "Answer the user's request." });
    case "execution_efficiency":
      return JSON.stringify({ score: trace.includes("REPEAT") ? 0.5 : 1, reason: "Counted the steps." });
    default:
      return undefined;
  }
};
