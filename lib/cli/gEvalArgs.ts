import type { GEvalDefinition } from "@/lib/contract/gEvalDefinition";
import { gEvalFromText } from "@/lib/judges/geval/definitionText";

/**
 * One `--g-eval 'name=coherence;criteria=...;params=input,actual_output;threshold=0.5'`:
 * a custom G-Eval judge exactly as the run form defines one (validated by the
 * same schema), or the message to show. Fields are separated by ";" followed
 * by a field name, so the criteria may contain semicolons of their own.
 * Optional: `steps=Step one|Step two` (written steps: no steps call), `scale=0-10`
 * (or 1-5, the default) and `rubric=0-3: misses it|4-7: partly|8-10: fully`.
 */
const FIELDS = ["name", "criteria", "steps", "params", "scale", "rubric", "threshold"] as const;
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
  const missing = ["name", "params"].filter((field) => !(field in fields));
  if (missing.length > 0) return `${flag}: missing ${missing.join(", ")}`;
  let threshold: number | undefined;
  if (fields.threshold !== undefined) {
    threshold = /^\d+(\.\d+)?$/.test(fields.threshold) ? Number(fields.threshold) : NaN;
    if (Number.isNaN(threshold)) return `${flag}: threshold must be a number from 0 to 1`;
  }
  const parsed = gEvalFromText({
    name: fields.name,
    criteria: fields.criteria,
    steps: fields.steps,
    evaluationParams: fields.params
      .split(",")
      .map((param) => param.trim())
      .filter(Boolean),
    scale: fields.scale,
    rubric: fields.rubric,
    threshold,
  });
  return "definition" in parsed ? parsed.definition : `${flag}: ${parsed.problems.join("; ")}`;
}
