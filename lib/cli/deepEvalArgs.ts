import { deepEvalSettingsSchema, type DeepEvalSettingsInput } from "@/lib/contract/deepEvalSettings";

/** DeepEval's options on the command line, by DeepEval's names; the parseArgs options they need. */
export const DEEPEVAL_OPTIONS = {
  "deepeval-exact": { type: "boolean" },
  "strict-mode": { type: "boolean" },
  "no-include-reason": { type: "boolean" },
  "penalize-ambiguous-claims": { type: "boolean" },
  "summarization-n": { type: "string" },
  "assessment-question": { type: "string", multiple: true },
  "list-cap": { type: "string" },
  "call-structure": { type: "string" },
  "truths-extraction-limit": { type: "string" },
} as const;

export const DEEPEVAL_USAGE = `  --deepeval-exact        every DeepEval metric as DeepEval computes it: DeepEval's own calls, no list cap,
                          and DeepEval's defaults (bleu1 unless --bleu-type says otherwise; G-Eval on 0–10
                          with steps written for each row); the estimate says its calls
                          (docs/metrics.md lists what still differs)
  --strict-mode           DeepEval's strict_mode: every DeepEval metric and G-Eval scores 1 or 0, and its
                          threshold is 1 (0 where lower is better)
  --no-include-reason     DeepEval's include_reason=False: no overall reason is asked for (the verdicts keep theirs)
  --penalize-ambiguous-claims
                          faithfulness counts an ambiguous (idk) claim against the score
  --summarization-n N     summarization's n: coverage questions to write (default 5)
  --assessment-question Q summarization's assessment_questions: a closed yes/no question the source answers
                          yes; none are written then; repeatable
  --list-cap N            the most claims, statements or opinions one answer may list (default 40); a list
                          that reaches it says so in its details
  --call-structure S      folded (default: one call per row, two for summarization) or deepeval: each
                          DeepEval metric's own calls (truths, claims, verdicts, reason; 2 to 7 a row, one
                          per chunk for contextual_relevancy), to reproduce DeepEval's number; the estimate
                          says both counts
  --truths-extraction-limit N
                          faithfulness and summarization with --call-structure deepeval: the most truths
                          taken from each document of the context (the source), the most important,
                          as DeepEval asks for them`;

type DeepEvalFlags = {
  "deepeval-exact"?: boolean;
  "strict-mode"?: boolean;
  "no-include-reason"?: boolean;
  "penalize-ambiguous-claims"?: boolean;
  "summarization-n"?: string;
  "assessment-question"?: string[];
  "list-cap"?: string;
  "call-structure"?: string;
  "truths-extraction-limit"?: string;
};

/** The run's DeepEval settings from the flags (undefined when none is given), or the problem to show. */
export function parseDeepEvalFlags(flags: DeepEvalFlags): { settings?: DeepEvalSettingsInput } | { problem: string } {
  const count = (flag: "summarization-n" | "list-cap" | "truths-extraction-limit") => {
    const raw = flags[flag];
    return raw === undefined ? undefined : /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  };
  // Checked by the schema below, which names the flag of any value it refuses.
  const input: Record<string, unknown> = {
    ...(flags["deepeval-exact"] ? { exact: true } : {}),
    ...(flags["strict-mode"] ? { strictMode: true } : {}),
    ...(flags["no-include-reason"] ? { includeReason: false } : {}),
    ...(flags["penalize-ambiguous-claims"] ? { penalizeAmbiguousClaims: true } : {}),
    ...(count("summarization-n") !== undefined ? { summarizationQuestions: count("summarization-n") } : {}),
    ...(flags["assessment-question"] ? { assessmentQuestions: flags["assessment-question"] } : {}),
    ...(count("list-cap") !== undefined ? { listCap: count("list-cap") } : {}),
    ...(flags["call-structure"] !== undefined ? { callStructure: flags["call-structure"].trim() } : {}),
    ...(count("truths-extraction-limit") !== undefined
      ? { truthsExtractionLimit: count("truths-extraction-limit") }
      : {}),
  };
  if (Object.keys(input).length === 0) return {};
  const parsed = deepEvalSettingsSchema.safeParse(input);
  if (parsed.success) return { settings: parsed.data };
  const issue = parsed.error.issues[0];
  const flag = FLAG_OF[String(issue.path[0])] ?? String(issue.path[0]);
  // A flag's own rule for a value it refuses; DeepEval-exact's refusals of a flag beside it say why in their words.
  return { problem: `--${flag}: ${issue.code === "custom" ? issue.message : (NUMBER_RULE[flag] ?? issue.message)}` };
}

const FLAG_OF: Record<string, string> = {
  summarizationQuestions: "summarization-n",
  assessmentQuestions: "assessment-question",
  listCap: "list-cap",
  callStructure: "call-structure",
  truthsExtractionLimit: "truths-extraction-limit",
};

const NUMBER_RULE: Record<string, string> = {
  "summarization-n": "must be a whole number from 1 to 20",
  "list-cap": "must be a whole number from 5 to 200",
  "call-structure": "must be folded or deepeval",
  "truths-extraction-limit": "must be a whole number from 1 to 200",
};
