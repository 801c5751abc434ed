import type { JudgeInput, JudgeVerdict } from "../../types";

/**
 * Offline (lexical) approximations of the seed 002/003 score metrics, by full
 * metric name. A metric is available offline only if it is here: where no
 * honest lexical rule exists, it stays out and the run form says why.
 */
export const SCORE_METRIC_HEURISTICS: Partial<Record<string, (input: JudgeInput) => JudgeVerdict>> = {};
