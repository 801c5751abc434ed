import type { MetricFamily } from "@/lib/metrics/metricCatalog";

export type MetricOption = {
  name: string;
  label: string;
  question: string;
  kind: string;
  family: MetricFamily;
  rows: number;
  rowCount: number;
  missing: string[];
  /** Set when the offline judge has no rule for this metric: why. */
  unavailableOffline: string | null;
  /** LLM calls per judged row with the LLM judge (0 for deterministic and statistical metrics). */
  callsPerRow: number;
  /** Score metrics of seeds 002/003: direction and default pass mark. */
  score: { direction: "higher" | "lower"; defaultThreshold: number } | null;
};
export type JudgeOption = { configured: true; defaultModel: string; endpoint: string } | { configured: false };
export type CustomJudgeDraft = { assessmentName: string; assessmentType: "ANSWER" | "RETRIEVAL"; instructions: string };
/** A custom G-Eval judge being defined (seed 002); validated by gEvalDefinitionSchema on submit. */
export type GEvalJudgeDraft = { name: string; criteria: string; evaluationParams: string[]; threshold: number };
