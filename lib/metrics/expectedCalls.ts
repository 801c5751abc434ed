/**
 * The run form's estimate of LLM calls before a run starts: for each chosen judge, the rows it will
 * judge (eligible rows, counted in SQL) times its calls per row (the catalogue's `callsPerRow`).
 * The offline heuristic judge and the statistical scorers make none. Custom judges (yes/no and
 * G-Eval) are counted at one call per row over every row, since their eligibility is known only
 * once they are defined; G-Eval adds one call for its steps per definition.
 */
export type CallsOption = { name: string; rows: number; callsPerRow: number };

export type ExpectedCalls = {
  total: number;
  perMetric: { name: string; calls: number }[];
  custom: number;
};

export function expectedLlmCalls(input: {
  options: CallsOption[];
  selected: ReadonlySet<string>;
  offline: boolean;
  rowCount: number;
  customJudges: number;
  gEvalJudges?: number;
}): ExpectedCalls {
  if (input.offline) return { total: 0, perMetric: [], custom: 0 };
  const perMetric = input.options
    .filter((option) => input.selected.has(option.name) && option.callsPerRow > 0)
    .map((option) => ({ name: option.name, calls: option.rows * option.callsPerRow }));
  const gEval = input.gEvalJudges ?? 0;
  const custom = input.customJudges * input.rowCount + gEval * (input.rowCount + 1);
  return { total: perMetric.reduce((sum, m) => sum + m.calls, 0) + custom, perMetric, custom };
}
