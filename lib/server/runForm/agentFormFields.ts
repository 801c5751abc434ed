import type { ToolCallParam, ToolCallSettingsInput } from "@/lib/contract/toolCallSettings";
import type { ConversationSettings } from "@/lib/contract/conversationSettings";

/**
 * The run form's tool-call settings (components/runs/form/ToolCallSettingsFields.tsx): checkboxes, present
 * only when ticked. Undefined when none is, so the run stores nothing for the upstream defaults.
 */
export function readToolCallFields(formData: FormData): ToolCallSettingsInput | undefined {
  const ticked = (name: string) => formData.get(`toolCalls:${name}`) === "on";
  const evaluationParams: ToolCallParam[] = [
    ...(ticked("inputParameters") ? (["input_parameters"] as const) : []),
    ...(ticked("output") ? (["output"] as const) : []),
  ];
  const settings: ToolCallSettingsInput = {
    ...(ticked("considerOrdering") ? { considerOrdering: true } : {}),
    ...(evaluationParams.length > 0 ? { evaluationParams } : {}),
    ...(ticked("exactMatch") ? { exactMatch: true } : {}),
  };
  return Object.keys(settings).length > 0 ? settings : undefined;
}

/** The conversational guidelines, one per line (ConversationSettingsFields); undefined when none is given. */
export function readConversationFields(formData: FormData): ConversationSettings | undefined {
  const text = formData.get("conversation:guidelines");
  const guidelines = (typeof text === "string" ? text : "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  return guidelines.length > 0 ? { guidelines } : undefined;
}
