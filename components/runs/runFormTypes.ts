export type MetricOption = {
  name: string;
  label: string;
  question: string;
  kind: string;
  rows: number;
  rowCount: number;
  missing: string[];
};
export type JudgeOption = { configured: true; defaultModel: string; endpoint: string } | { configured: false };
export type CustomJudgeDraft = { assessmentName: string; assessmentType: "ANSWER" | "RETRIEVAL"; instructions: string };
