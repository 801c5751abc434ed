import {
  EVALUATION_PARAMS,
  GEVAL_SCALES,
  gEvalDefinitionSchema,
  type GEvalDefinition,
  type RubricEntry,
} from "@/lib/contract/gEvalDefinition";

/**
 * A G-Eval judge as people type it, in the run form's text boxes or a CLI flag: evaluation steps one per
 * line (or separated by "|"), a rubric one range per line ("0-3: misses the question", "10: complete"),
 * and the scale by name. Turned into a definition checked by gEvalDefinitionSchema, or problems that
 * name the field and line.
 */
export type GEvalText = {
  name: string;
  criteria?: string;
  steps?: string;
  evaluationParams: string[];
  scale?: string;
  rubric?: string;
  threshold?: number;
};

/** The definition's fields as people type them. */
const FIELD_NAMES: Record<string, string> = { evaluationParams: "params", evaluationSteps: "steps" };

const lines = (text: string | undefined) =>
  (text ?? "")
    .split(/\r?\n|\|/)
    .map((line) => line.trim())
    .filter(Boolean);

const RUBRIC_LINE = /^(\d+)\s*(?:(?:-|–|to)\s*(\d+)\s*)?:\s*(.+)$/;

/** A rubric from its lines, or the first line that does not read as "from-to: outcome". */
export function parseRubricText(text: string): { rubric: RubricEntry[] } | { problem: string } {
  const rubric: RubricEntry[] = [];
  for (const [index, line] of lines(text).entries()) {
    const match = RUBRIC_LINE.exec(line);
    if (!match)
      return {
        problem: `line ${index + 1} "${line.slice(0, 60)}": write "from-to: expected outcome", e.g. "7-9: mostly right"`,
      };
    const start = Number(match[1]);
    rubric.push({
      scoreRange: [start, match[2] === undefined ? start : Number(match[2])],
      expectedOutcome: match[3].trim(),
    });
  }
  return { rubric };
}

export function gEvalFromText(text: GEvalText): { definition: GEvalDefinition } | { problems: string[] } {
  const steps = lines(text.steps);
  const rubricText = text.rubric?.trim() ? parseRubricText(text.rubric) : null;
  if (rubricText && "problem" in rubricText) return { problems: [`rubric: ${rubricText.problem}`] };
  const scale = text.scale?.trim() || undefined;
  if (scale !== undefined && !(GEVAL_SCALES as readonly string[]).includes(scale))
    return { problems: [`scale: must be one of ${GEVAL_SCALES.join(", ")}`] };
  const parsed = gEvalDefinitionSchema.safeParse({
    name: text.name,
    ...(text.criteria?.trim() ? { criteria: text.criteria } : {}),
    ...(steps.length > 0 ? { evaluationSteps: steps } : {}),
    evaluationParams: text.evaluationParams,
    ...(scale ? { scale } : {}),
    ...(rubricText && rubricText.rubric.length > 0 ? { rubric: rubricText.rubric } : {}),
    ...(text.threshold !== undefined ? { threshold: text.threshold } : {}),
  });
  if (parsed.success) return { definition: parsed.data };
  return {
    problems: [
      ...new Set(
        parsed.error.issues.map((issue) => {
          const field = FIELD_NAMES[String(issue.path[0])] ?? String(issue.path[0] ?? "definition");
          const message =
            field === "params" && issue.code === "invalid_value"
              ? `each must be one of ${EVALUATION_PARAMS.join(", ")}`
              : issue.message;
          return `${field}: ${message}`;
        }),
      ),
    ],
  };
}
