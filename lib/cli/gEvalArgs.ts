import { EVALUATION_PARAMS, gEvalDefinitionSchema, type GEvalDefinition } from "@/lib/judges/geval/definition";

/**
 * One `--g-eval 'name=coherence;criteria=...;params=input,actual_output;threshold=0.5'`:
 * a custom G-Eval judge exactly as the run form defines one (validated by the
 * same schema), or the message to show. Fields are separated by ";" followed
 * by a field name, so the criteria may contain semicolons of their own.
 */
const FIELDS = ["name", "criteria", "params", "threshold"] as const;
const FIELD_START = new RegExp(`;\\s*(?=(?:${FIELDS.join("|")})\\s*=)`);

export function parseGEvalOption(entry: string): GEvalDefinition | string {
  const flag = `--g-eval ${JSON.stringify(entry.length > 60 ? `${entry.slice(0, 57)}...` : entry)}`;
  const fields: Record<string, string> = {};
  for (const part of entry.split(FIELD_START)) {
    const match = /^\s*([a-z_]+)\s*=([\s\S]*)$/.exec(part);
    if (!match || !(FIELDS as readonly string[]).includes(match[1]))
      return `${flag}: expected ${FIELDS.map((f) => `${f}=…`).join(";")}, got "${part.trim()}"`;
    if (match[1] in fields) return `${flag}: ${match[1]} is given twice`;
    fields[match[1]] = match[2].trim();
  }
  const missing = ["name", "criteria", "params"].filter((field) => !(field in fields));
  if (missing.length > 0) return `${flag}: missing ${missing.join(", ")}`;
  let threshold: number | undefined;
  if (fields.threshold !== undefined) {
    threshold = /^\d+(\.\d+)?$/.test(fields.threshold) ? Number(fields.threshold) : NaN;
    if (Number.isNaN(threshold)) return `${flag}: threshold must be a number from 0 to 1`;
  }
  const parsed = gEvalDefinitionSchema.safeParse({
    name: fields.name,
    criteria: fields.criteria,
    evaluationParams: fields.params
      .split(",")
      .map((param) => param.trim())
      .filter(Boolean),
    ...(threshold !== undefined ? { threshold } : {}),
  });
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const field = issue.path[0] === "evaluationParams" ? "params" : String(issue.path[0] ?? "definition");
    const message =
      field === "params" && issue.code === "invalid_value"
        ? `each must be one of ${EVALUATION_PARAMS.join(", ")}`
        : issue.message;
    return `${field}: ${message}`;
  });
  return `${flag}: ${[...new Set(problems)].join("; ")}`;
}
