import type { CallPlan } from "../deepEvalCalls/callPlan";
import { DEEPEVAL_CONVERSATION_PLANS } from "./deepEvalConversationPlans";
import { MLFLOW_SESSION_PLANS } from "./mlflowSessionPlans";

/**
 * The judges of a whole conversation (lib/contract/conversationMetricCatalog.ts), each as its upstream calls the
 * model: MLflow 3's session judges (yes or no) and DeepEval's conversational metrics (scores). They read
 * `input.conversation`; a row without one, or without an assistant turn, is an error verdict saying so.
 */
export const CONVERSATION_CALL_PLANS: Partial<Record<string, CallPlan>> = {
  ...MLFLOW_SESSION_PLANS,
  ...DEEPEVAL_CONVERSATION_PLANS,
};
