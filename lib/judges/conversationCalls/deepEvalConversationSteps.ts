import { z } from "zod";
import { fence, FENCE_RULE } from "../prompts/fence";
import type { PromptCall } from "../prompts/promptTemplate";
import { binaryVerdict, itemReason, itemText, jsonOnly, memoByCount, upToCap } from "../prompts/scoreMetrics/shared";
import { fencedTurns, type NumberedTurn } from "./conversationText";

/**
 * The calls of DeepEval's conversational metrics, each prompt carrying its DeepEval template's instructions,
 * scale and answer keys (confident-ai/deepeval `deepeval/metrics/<metric>/templates/<Class>/*.txt` and
 * `schema.py`):
 *   conversation_completeness  extract_user_intentions.txt, generate_verdicts.txt @ 8b225c97; schema.py @ 07114a2c
 *   turn_relevancy             generate_verdicts.txt @ 8b225c97; schema.py @ 96438776
 *   knowledge_retention        extract_data.txt, generate_verdict.txt @ 42fb6abd; schema.py @ 0a45afb7
 * Their worked examples are shortened to one each; their reason templates are not used: the reason is the
 * shared DeepEval reason call (deepEvalCalls/reasonStep.ts), made only with include_reason. DeepEval shows turns
 * as `{role, content}` dicts; here every turn is fenced and numbered (conversationText.ts), and every other piece
 * a call reads that came from the conversation (an intention, the extracted knowledge) is fenced too.
 */
const JSON_ONLY = "IMPORTANT: Please make sure to only return in JSON format.";

/** One yes/no verdict, a reason only for the answer that counts against the conversation (DeepEval's shape). */
const verdictSchema = z.strictObject({ verdict: binaryVerdict, reason: itemReason.optional() });
export type TurnVerdict = z.infer<typeof verdictSchema>;

export type TurnsContext = { turns: NumberedTurn[] };

/** ConversationCompletenessMetric, `extract_user_intentions`: every intention of the user, from all turns. */
export const userIntentions: PromptCall<{ intentions: string[] }, TurnsContext & { listCap: number }> = {
  version: "deepeval.conversation_completeness.intentions/v1",
  schemaName: "deepeval_user_intentions",
  schema: (_input, context) => intentionsSchema(context.listCap),
  system: (context) =>
    [
      "Based on the given list of message exchanges between a user and an LLM, generate a JSON object to extract all user intentions in the conversation. The JSON will have 1 field: 'intentions'.",
      "You should ONLY consider the overall intention, and not dwell too much on the specifics, as we are more concerned about the overall objective of the conversation.",
      JSON_ONLY,
      'Example: a user says "Hi!", the assistant "Hello! How may I help you?", the user "Nothing, I\'m just playing with you.", the assistant "Oh ok, in that case should you need anything just let me know!", the user "Actually, I have something I want to tell you". Example JSON: {"intentions": ["User wants to tell the assistant something"]}',
      "The 'intentions' key must be a list of strings.",
      "If there are multiple individual tasks at each turn, please give the intentions separately, DON'T summarize the intentions into a single one.",
      FENCE_RULE,
      jsonOnly(context.listCap),
    ].join("\n"),
  render: (_input, context) => `Turns:\n${fencedTurns(context.turns)}`,
};

const intentionsSchema = memoByCount((listCap) => z.strictObject({ intentions: upToCap(z.array(itemText), listCap) }));

/** ConversationCompletenessMetric, `generate_verdicts`: was this one intention satisfied, given all turns. */
export const intentionVerdict: PromptCall<TurnVerdict, TurnsContext & { intention: string }> = {
  version: "deepeval.conversation_completeness.verdict/v1",
  schemaName: "deepeval_intention_verdict",
  schema: () => verdictSchema,
  system: [
    "Based on the given list of message exchanges between a user and an LLM, generate a JSON object to indicate whether given user intention was satisfied from the conversation messages. The JSON will have 2 fields: 'verdict' and 'reason'.",
    "The 'verdict' key should STRICTLY be either 'yes' or 'no', which states whether the user intention was satisfied or not.",
    "Provide a 'reason' ONLY if the answer is 'no'.",
    "You MUST USE look at all messages provided in the list of messages to make an informed judgement on satisfaction.",
    JSON_ONLY,
    'Example: the user says "Hi!", the assistant "Hello! How may I help you?", the user "Nothing, I\'m just playing with you.", the assistant "Oh ok, in that case should you need anything just let me know!", the user "Actually, I have something I want to tell you". For the intention "User wants to tell the assistant something." the JSON is:',
    '{"reason": "The user wanted to tell the assistant something but the LLM not only refused to answer but replied \'Oh ok, in that case should you need anything just let me know!\', which is completely irrelevant and doesn\'t satisfy the user at all.", "verdict": "no"}',
    "You MUST TRY to quote some LLM responses if providing a reason.",
    "You DON'T have to provide a reason if the answer is 'yes'.",
    "ONLY provide a 'no' answer if the LLM responses are failed to satisfy the user intent.",
    FENCE_RULE,
  ].join("\n"),
  render: (_input, context) =>
    [`Turns:\n${fencedTurns(context.turns)}`, `User Intention:\n${fence("intention", context.intention)}`].join("\n\n"),
};

/** TurnRelevancyMetric, `generate_verdicts`: is the LAST assistant message of the window relevant to the turns before it. */
export const turnRelevancyVerdict: PromptCall<TurnVerdict, TurnsContext> = {
  version: "deepeval.turn_relevancy.verdict/v1",
  schemaName: "deepeval_turn_relevancy_verdict",
  schema: () => verdictSchema,
  system: [
    "Based on the given list of message exchanges between a user and an LLM, generate a JSON object to indicate whether the LAST `assistant` message is relevant to context in messages. The JSON will have 2 fields: 'verdict' and 'reason'.",
    "The 'verdict' key should STRICTLY be either 'yes' or 'no', which states whether the last `assistant` message is relevant according to the context in messages.",
    "Provide a 'reason' ONLY if the answer is 'no'.",
    "You MUST USE the previous messages (if any) provided in the list of messages to make an informed judgement on relevancy.",
    JSON_ONLY,
    'Example: the user says "Hi! I have something I want to tell you", the assistant "Sure, what is it?", the user "I\'ve a sore throat, what meds should I take?", the assistant "Not sure, but isn\'t it a nice day today?". Example JSON:',
    '{"reason": "The LLM responded \'isn\'t it a nice day today\' to a message that asked about how to treat a sore throat, which is completely irrelevant.", "verdict": "no"}',
    "You MUST ONLY provide a verdict for the LAST message on the list but MUST USE context from the previous messages.",
    "You DON'T have to provide a reason if the answer is 'yes'.",
    "ONLY provide a 'no' answer if the LLM response is COMPLETELY irrelevant to the message input.",
    "Vague LLM responses to vague inputs, such as greetings DOES NOT count as irrelevancies!",
    FENCE_RULE,
  ].join("\n"),
  render: (_input, context) => `Messages:\n${fencedTurns(context.turns)}`,
};

/** DeepEval's `Knowledge.data`: string keys, each value a string or a list of strings. */
export type KnowledgeData = Record<string, string | string[]>;

const knowledgeSchema = memoByCount((listCap) =>
  z.strictObject({
    data: z
      .record(z.string().min(1).max(200), z.union([itemReason, upToCap(z.array(itemReason), listCap)]))
      .refine((data) => Object.keys(data).length <= listCap, { message: `at most ${listCap} keys` }),
  }),
);

/** KnowledgeRetentionMetric, `extract_data`: the facts of one user message, the turns before it for context. */
export const extractKnowledge: PromptCall<
  { data: KnowledgeData },
  { previous: NumberedTurn[]; message: NumberedTurn; listCap: number }
> = {
  version: "deepeval.knowledge_retention.extract_data/v1",
  schemaName: "deepeval_knowledge",
  schema: (_input, context) => knowledgeSchema(context.listCap),
  system: (context) =>
    [
      "You are given a conversation between an AI assistant and a user. The assistant is asking questions to collect structured information, and the user is responding casually or factually.",
      "Your task is to extract **only the factual information found in the most recent user message** and return it as a JSON object.",
      "Guidelines:",
      "1. Only extract information that is **explicitly stated** in the user message.",
      "2. Use the previous turns only to understand what the assistant is asking about.",
      "3. Do not extract anything based on assumptions or the assistant's message alone.",
      "4. If the user message confirms, corrects, or adds to earlier facts, treat the user message as the source of truth.",
      '5. Output a valid **JSON object** under the key "data". All keys must be **strings**, and all values must be **strings or lists of strings**.',
      '6. If there is no factual content in the user message, return an empty object ({"data": {}}).',
      'Example: the assistant asked "Do you have any dietary restrictions?" and the user message is "Yes, I\'m vegetarian and allergic to peanuts." JSON: {"data": {"Dietary Restrictions": ["Vegetarian", "Peanut Allergy"]}}',
      'Example: the assistant asked "Can I confirm your birth year is 1989?" and the user message is "No, it\'s actually 1992." JSON: {"data": {"Birth Year": "1992"}}',
      FENCE_RULE,
      Number.isFinite(context.listCap)
        ? `Return only the JSON, at most ${context.listCap} keys.`
        : "Return only the JSON.",
    ].join("\n"),
  render: (_input, context) =>
    [
      `Previous Turns:\n${fencedTurns(context.previous)}`,
      `Latest User Message:\n${fence("user_message", context.message.content, { turn: context.message.number })}`,
    ].join("\n\n"),
};

/** KnowledgeRetentionMetric, `generate_verdict`: does this assistant message forget or contradict what is known ("yes" is the lapse). */
export const retentionVerdict: PromptCall<TurnVerdict, { message: NumberedTurn; knowledge: KnowledgeData[] }> = {
  version: "deepeval.knowledge_retention.verdict/v1",
  schemaName: "deepeval_retention_verdict",
  schema: () => verdictSchema,
  system: [
    'You are given an AI-generated message (the "LLM message") and a set of facts previously stated in the conversation (the "Previous Knowledge").',
    "Your task is to determine whether the LLM message **contradicts** or **forgets** any of the known facts.",
    "Output format: return a JSON object with:",
    '- "verdict": either "yes" or "no". "yes" means the LLM is forgetting or contradicting known facts. "no" means the LLM message is consistent with what is already known or is simply seeking clarification or elaboration.',
    '- "reason": (optional) A string explaining the verdict. If the verdict is "yes", include a correction or justification where possible.',
    "Rules:",
    "1. **DO NOT hallucinate or assume new information**. Only use what's explicitly given in the Previous Knowledge.",
    '2. If the LLM asks for information that is already known (e.g., "Where do you live?" when the address is already provided), the verdict is "yes".',
    '3. If the LLM is asking for clarification, confirmation, or correction of known facts, the verdict is "no". (This rule is critical.)',
    "4. Only return a valid JSON. No extra commentary.",
    'Example: LLM message "Are you allergic to anything again?", Previous Knowledge {"Allergies": ["Peanuts"]}. JSON: {"verdict": "yes", "reason": "The LLM asks for allergies when the user is already known to be allergic to peanuts."}',
    'Example: LLM message "Are you sure this is your phone number?", Previous Knowledge {"Phone Number": "555-1029"}. JSON: {"verdict": "no"}',
    FENCE_RULE,
  ].join("\n"),
  render: (_input, context) =>
    [
      `LLM message:\n${fence("llm_message", context.message.content, { turn: context.message.number })}`,
      `Previous Knowledge:\n${fence("previous_knowledge", JSON.stringify(context.knowledge, null, 2))}`,
    ].join("\n\n"),
};
