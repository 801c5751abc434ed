import { deepEvalSettingsSchema, type DeepEvalSettingsInput } from "@/lib/contract/deepEvalSettings";

/**
 * The run form's DeepEval options (components/runs/form/DeepEvalSettingsFields.tsx, fields `deepEval:<key>`) as a
 * run's settings, or the problems worded for the form. Nothing when the form did not show them; an
 * unchecked box is "off" only when it was shown (`deepEval:shown`).
 */
export function readDeepEvalFields(
  formData: FormData,
): { ok: true; settings?: DeepEvalSettingsInput } | { ok: false; errors: string[] } {
  if (formData.get("deepEval:shown") === null) return { ok: true };
  const text = (key: string) => String(formData.get(`deepEval:${key}`) ?? "").trim();
  const questions = text("assessmentQuestions")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const parsed = deepEvalSettingsSchema.safeParse({
    strictMode: formData.get("deepEval:strictMode") === "on",
    includeReason: formData.get("deepEval:includeReason") === "on",
    penalizeAmbiguousClaims: formData.get("deepEval:penalizeAmbiguousClaims") === "on",
    ...(text("listCap") ? { listCap: Number(text("listCap")) } : {}),
    ...(text("summarizationQuestions") ? { summarizationQuestions: Number(text("summarizationQuestions")) } : {}),
    ...(questions.length > 0 ? { assessmentQuestions: questions } : {}),
    // The calls select's third choice, DeepEval-exact, is a setting of its own rather than a call structure.
    ...(text("callStructure") === "exact"
      ? { exact: true }
      : text("callStructure")
        ? { callStructure: text("callStructure") }
        : {}),
    ...(text("truthsExtractionLimit") ? { truthsExtractionLimit: Number(text("truthsExtractionLimit")) } : {}),
  });
  if (parsed.success) return { ok: true, settings: parsed.data };
  return {
    ok: false,
    errors: parsed.error.issues.map(
      (issue) => `${LABELS[String(issue.path[0])] ?? String(issue.path[0])}: ${issue.message}`,
    ),
  };
}

const LABELS: Record<string, string> = {
  listCap: "List cap",
  summarizationQuestions: "Summarization n",
  assessmentQuestions: "Summarization assessment questions",
  callStructure: "Calls per row",
  truthsExtractionLimit: "truths_extraction_limit",
};
