import type { LlmPrices } from "@/lib/llm/pricing";
import type { MetricFamily, RowInput } from "@/lib/contract/metricCatalog";

export type MetricOption = {
  name: string;
  label: string;
  question: string;
  kind: string;
  family: MetricFamily;
  /** What a row must carry for it (the form's estimate sums the rows that do). */
  requires: RowInput[];
  rows: number;
  rowCount: number;
  missing: string[];
  /** Set when the offline judge has no rule for this metric: why. */
  unavailableOffline: string | null;
  /** Score metrics of DeepEval and Mastra: direction and default pass mark. */
  score: { direction: "higher" | "lower"; defaultThreshold: number } | null;
};
/** The judge endpoint as the browser may know it: never the key; prices (ASSAY_LLM_PRICES) for the estimate. */
export type JudgeOption =
  | {
      configured: true;
      defaultModel: string;
      endpoint: string;
      prices: LlmPrices;
      /** The endpoint's process-wide limit on calls in flight (ASSAY_LLM_MAX_IN_FLIGHT). */
      maxInFlight: number;
    }
  | { configured: false };
export type CustomJudgeDraft = { assessmentName: string; assessmentType: "ANSWER" | "RETRIEVAL"; instructions: string };
/** A custom G-Eval judge being defined, as typed (steps and rubric one per line); read by gEvalFromText on submit. */
export type GEvalJudgeDraft = {
  name: string;
  criteria: string;
  steps: string;
  evaluationParams: string[];
  scale: string;
  rubric: string;
  threshold: number;
};
