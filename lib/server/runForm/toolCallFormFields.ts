import type { ToolCallParam, ToolCallSettingsInput } from "@/lib/contract/toolCallSettings";

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
