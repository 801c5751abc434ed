import type { Responder } from "./fakeOpenAIServer";
import { fencedContents } from "./fenced";

/**
 * Makes the fake OpenAI server answer the conversation judges (lib/judges/conversationCalls) from markers in the
 * fenced turns they read (each turn fenced as `turn`, numbered turn="N", written `role: content`):
 *   mlflow_conversation_completeness       "no" when a user turn says UNMET; failing_turns: those user turns
 *   mlflow_conversational_role_adherence   "no" when an assistant turn says OFFROLE; failing_turns: those turns
 *   mlflow_conversational_safety           "no" when an assistant turn says UNSAFE (UNSAFE in a user turn counts
 *                                          for nothing); failing_turns: those turns
 *   mlflow_conversational_guidelines      "no" when an assistant turn says BREAKS; failing_turns: those turns
 *   mlflow_last_turn_knowledge_retention   "no" when the LAST turn shown (the answer judged) says FORGETS
 *   deepeval_user_intentions               one intention per user turn: "User wants: <its content>"
 *   deepeval_intention_verdict             "no" when the intention says UNMET
 *   deepeval_turn_relevancy_verdict        "no" when the LAST turn of the window says OFFTOPIC
 *   deepeval_knowledge                     each FACT:key=value in the latest user message, as {key: value}
 *   deepeval_retention_verdict             "yes" (a lapse) when the LLM message says FORGETS
 * Every rationale names the turns shown ("turns 1-6"), so two calls' answers can be told apart. The reason call
 * (deepeval_reason) is fakeDeepEvalCallsResponder's; any other request gets undefined.
 */
export const fakeConversationResponder: Responder = (body) => {
  const schemaName: string = body.response_format?.json_schema?.name ?? "";
  const prompt = (body.messages as { role: string; content: string }[])
    .filter((m) => m.role === "user")
    .map((m) => m.content)
    .join("\n");
  const turns = numberedTurns(prompt);
  const shown = turns.length > 0 ? `turns ${turns[0].number}-${turns[turns.length - 1].number}` : "no turns";
  const marked = (role: string, marker: string) =>
    turns.filter((t) => t.role === role && t.content.includes(marker)).map((t) => t.number);
  const wholeConversation = (failing: number[]) =>
    JSON.stringify({
      rationale: `Let's think step by step: read ${shown}.`,
      result: failing.length > 0 ? "no" : "yes",
      failing_turns: failing,
    });
  const verdict = (no: boolean, reason: string) => JSON.stringify(no ? { verdict: "no", reason } : { verdict: "yes" });
  switch (schemaName) {
    case "mlflow_conversation_completeness":
      return wholeConversation(marked("user", "UNMET"));
    case "mlflow_conversational_guidelines":
      return wholeConversation(marked("assistant", "BREAKS"));
    case "mlflow_conversational_role_adherence":
      return wholeConversation(marked("assistant", "OFFROLE"));
    case "mlflow_conversational_safety":
      return wholeConversation(marked("assistant", "UNSAFE"));
    case "mlflow_last_turn_knowledge_retention": {
      const last = turns[turns.length - 1];
      return JSON.stringify({
        result: last?.content.includes("FORGETS") ? "no" : "yes",
        rationale: `read ${shown}, judged turn ${last?.number}`,
      });
    }
    case "deepeval_user_intentions":
      return JSON.stringify({
        intentions: turns.filter((t) => t.role === "user").map((t) => `User wants: ${t.content}`),
      });
    case "deepeval_intention_verdict": {
      const intention = fencedContents(prompt, "intention")[0] ?? "";
      return verdict(intention.includes("UNMET"), "the intention was not met");
    }
    case "deepeval_turn_relevancy_verdict": {
      const last = turns[turns.length - 1];
      return verdict(last?.content.includes("OFFTOPIC") === true, `turn ${last?.number} is off topic`);
    }
    case "deepeval_knowledge": {
      const message = fencedContents(prompt, "user_message")[0] ?? "";
      const data = Object.fromEntries([...message.matchAll(/FACT:(\w+)=(\w+)/g)].map((m) => [m[1], m[2]]));
      return JSON.stringify({ data });
    }
    case "deepeval_retention_verdict": {
      const message = fencedContents(prompt, "llm_message")[0] ?? "";
      return JSON.stringify(
        message.includes("FORGETS") ? { verdict: "yes", reason: "asks again what is known" } : { verdict: "no" },
      );
    }
    default:
      return undefined;
  }
};

/** The fenced turns of a prompt with their numbers and roles, in order. */
function numberedTurns(prompt: string): { number: number; role: string; content: string }[] {
  const pattern = /<untrusted_turn_([0-9a-f]{12}) turn="(\d+)">\n([\s\S]*?)\n<\/untrusted_turn_\1>/g;
  return [...prompt.matchAll(pattern)].map((m) => {
    const [role, ...rest] = m[3].split(": ");
    return { number: Number(m[2]), role, content: rest.join(": ") };
  });
}
