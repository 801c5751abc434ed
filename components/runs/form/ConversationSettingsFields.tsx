import { CONVERSATIONAL_GUIDELINES, MAX_GUIDELINES } from "@/lib/contract/conversationSettings";
import type { MetricOption } from "./runFormTypes";

/**
 * MLflow's conversational guidelines, one per line, shown when conversational_guidelines is chosen (it runs only
 * with them). The field is read by lib/server/runForm/agentFormFields.ts.
 */
export function ConversationSettingsFields({ metrics }: { metrics: MetricOption[] }) {
  if (!metrics.some((metric) => metric.name === CONVERSATIONAL_GUIDELINES)) return null;
  return (
    <label className="flex flex-col gap-1 text-xs font-medium text-slate-700" data-testid="conversation-guidelines">
      Conversational guidelines (one per line, at most {MAX_GUIDELINES})
      <textarea
        name="conversation:guidelines"
        required
        rows={3}
        placeholder={"Always answer in English.\nNever promise a refund."}
        className="w-full max-w-2xl rounded border border-slate-300 px-2 py-1 text-sm font-normal"
      />
      <span className="font-normal text-slate-600">
        Every assistant turn of each conversation must follow them all.
      </span>
    </label>
  );
}
