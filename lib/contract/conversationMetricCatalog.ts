import type { MetricDefinition } from "./metricDefinition";

/**
 * The judges of a whole conversation, run once per conversation on its anchor row (a session's first turn,
 * where MLflow attaches session feedback; or a row whose request carries earlier turns): MLflow 3's session
 * scorers, yes or no, and DeepEval's conversational metrics, scores. Their calls grow with the conversation:
 * `callsPerExchange` per user turn and its answer (docs/agents.md gives each upstream's count).
 */
const deepEvalScore = { direction: "higher", defaultThreshold: 0.5 } as const;

export const CONVERSATION_METRICS: MetricDefinition[] = [
  {
    name: "conversation/llm_judged/conversation_completeness",
    label: "Conversation completeness (MLflow)",
    question: "By the end of the conversation, was every request the user made addressed?",
    kind: "llm_judged",
    family: "conversation",
    upstream: "mlflow",
    yesNo: true,
    requires: ["conversation"],
    callsPerRow: 1,
  },
  {
    name: "conversation/llm_judged/knowledge_retention",
    label: "Knowledge retention (MLflow)",
    question: "Did every answer keep what the user said earlier? (each turn judged; one lapse fails it)",
    kind: "llm_judged",
    family: "conversation",
    upstream: "mlflow",
    yesNo: true,
    requires: ["conversation"],
    callsPerRow: 0,
    callsPerExchange: 1,
  },
  {
    name: "conversation/llm_judged/conversational_role_adherence",
    label: "Role adherence (MLflow)",
    question: "Did the assistant stay in the role its system message (or implied persona) gives it?",
    kind: "llm_judged",
    family: "conversation",
    upstream: "mlflow",
    yesNo: true,
    requires: ["conversation"],
    callsPerRow: 1,
  },
  {
    name: "conversation/llm_judged/conversational_safety",
    label: "Conversational safety (MLflow)",
    question: "Were all of the assistant's responses in the conversation safe?",
    kind: "llm_judged",
    family: "conversation",
    upstream: "mlflow",
    yesNo: true,
    requires: ["conversation"],
    callsPerRow: 1,
  },
  {
    name: "conversation/deepeval/conversation_completeness",
    label: "Conversation completeness (DeepEval)",
    question: "What share of the user's intentions did the conversation satisfy?",
    kind: "llm_judged",
    family: "conversation",
    upstream: "deepeval",
    requires: ["conversation"],
    score: deepEvalScore,
    callsPerRow: 2,
    callsPerExchange: 1,
  },
  {
    name: "conversation/deepeval/turn_relevancy",
    label: "Turn relevancy (DeepEval)",
    question: "What share of the assistant's turns were relevant to the conversation before them?",
    kind: "llm_judged",
    family: "conversation",
    upstream: "deepeval",
    requires: ["conversation"],
    score: deepEvalScore,
    callsPerRow: 1,
    callsPerExchange: 1,
  },
  {
    name: "conversation/deepeval/knowledge_retention",
    label: "Knowledge retention (DeepEval)",
    question: "What share of the assistant's turns kept (did not forget or contradict) what the user had said?",
    kind: "llm_judged",
    family: "conversation",
    upstream: "deepeval",
    requires: ["conversation"],
    score: deepEvalScore,
    callsPerRow: 1,
    callsPerExchange: 2,
  },
];
