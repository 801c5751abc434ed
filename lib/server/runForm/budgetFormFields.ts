import { budgetFieldsSchema } from "@/lib/engine/budgetFields";

/** The budget fields of the run form and of a paused run's Raise budget form (empty: no limit). */
export function readBudgetFields(formData: FormData) {
  return budgetFieldsSchema.safeParse({
    budgetCalls: formData.get("budgetCalls"),
    budgetTokens: formData.get("budgetTokens"),
    budgetUsd: formData.get("budgetUsd"),
  });
}
