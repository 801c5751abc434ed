import fs from "node:fs";
import { z } from "zod";
import { customJudgeSchema, type RunConfigInput } from "@/lib/engine/runConfig";
import { gEvalDefinitionSchema, type GEvalDefinition } from "@/lib/contract/gEvalDefinition";

/**
 * Judge definitions read from JSON files on the command line: `--custom-judges FILE` (one custom judge or a
 * list, as the API's customJudges take them, an aligned judge's alignment and basedOn included) and
 * `--g-eval @FILE` (one G-Eval definition, as the API's gEvalJudges). `--align` writes such a file. Each is
 * checked by the run config's own schema; a problem names the file and the field.
 */
export type CustomJudgeInput = NonNullable<RunConfigInput["customJudges"]>[number];

export function readCustomJudgesFile(path: string): CustomJudgeInput[] | string {
  const json = readJson(path, "--custom-judges");
  if (typeof json === "string") return json;
  // A list or one judge, each checked alone so that a problem names its field (a union would only say "invalid").
  const parsed = z
    .array(customJudgeSchema)
    .min(1)
    .max(20)
    .safeParse(Array.isArray(json) ? json : [json]);
  if (!parsed.success) return `--custom-judges ${path}: ${describe(parsed.error, Array.isArray(json))}`;
  return parsed.data;
}

export function readGEvalFile(path: string): GEvalDefinition | string {
  const json = readJson(path, "--g-eval");
  if (typeof json === "string") return json;
  const parsed = gEvalDefinitionSchema.safeParse(json);
  return parsed.success ? parsed.data : `--g-eval @${path}: ${describe(parsed.error)}`;
}

function readJson(path: string, flag: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(path, "utf8");
  } catch {
    return `${flag}: cannot read ${path}`;
  }
  try {
    return z.unknown().parse(JSON.parse(text));
  } catch {
    return `${flag} ${path}: not valid JSON`;
  }
}

/** Each problem with its field: "assessmentName: …", or "2.instructions: …" in a list. */
function describe(error: z.ZodError, list = true): string {
  return error.issues
    .map((issue) => {
      const where = (list ? issue.path : issue.path.slice(1)).join(".");
      return `${where || "definition"}: ${issue.message}`;
    })
    .join("; ");
}
