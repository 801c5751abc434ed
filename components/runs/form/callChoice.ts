import { deepEvalSettings, type CallStructure, type DeepEvalSettings } from "@/lib/contract/deepEvalSettings";

/**
 * The run form's DeepEval options that change how many calls a run makes, held by the form so that its
 * estimate follows them: the call structure, whether the reason is asked for (a call of its own in
 * DeepEval's structure), and whether summarization's questions are given (no call to write them).
 */
export type CallChoice = {
  callStructure: CallStructure;
  /** DeepEval-exact: DeepEval's own calls and defaults (callStructure is then "deepeval"). */
  exact: boolean;
  includeReason: boolean;
  givenQuestions: boolean;
};

export const DEFAULT_CALL_CHOICE: CallChoice = {
  callStructure: "folded",
  exact: false,
  includeReason: true,
  givenQuestions: false,
};

/** What DeepEvalSettingsFields needs: the choice, its setter, and the run's calls under each structure. */
export type CallChoiceProps = {
  choice: CallChoice;
  onChange: (choice: CallChoice) => void;
  byStructure: Record<CallStructure, number>;
};

/** The settings the estimate prices, under `callStructure` (the chosen one, or the other for comparison). */
export function callChoiceSettings(choice: CallChoice, callStructure: CallStructure): DeepEvalSettings {
  return deepEvalSettings({
    ...(choice.exact && callStructure === "deepeval" ? { exact: true } : { callStructure }),
    includeReason: choice.includeReason,
    ...(choice.givenQuestions ? { assessmentQuestions: ["(given)"] } : {}),
  });
}
