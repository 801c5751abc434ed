import type { ChunkVerdict, JudgeVerdict, Rating } from "@/lib/contract/judgeResult";
import type { CustomJudgeDefinition } from "@/lib/contract/judgeDefinitions";
import type { JudgeInput } from "../types";
import { errorVerdict } from "../types";
import { contentWords, normalizeText, overlap, percent, showWords, stem } from "./text";

/**
 * Custom judges offline. Free-form criteria cannot really be read without a model,
 * so this is a keyword approximation and every rationale says so. The instructions
 * are split into clauses; a clause's key terms are its quoted phrases if it has any,
 * otherwise its content words minus words about judging itself ("response", "must",
 * "mention"...). A positive clause is met when all its quoted phrases, or ≥50% of its
 * words, occur in the judged text; a negative clause ("must not", "never", "avoid",
 * "no debe", "darf nicht"...) is violated under the same condition, counting only
 * sentences of the judged text that are not themselves negated. yes = every
 * positive clause met and no negative clause violated.
 */

const CLAUSE_SHARE = 0.5;
const NEGATIVE =
  /\b(?:must not|mustn'?t|should not|shouldn'?t|do not|don'?t|does not|doesn'?t|never|avoid|without|not (?:mention|include|contain|use|reveal|say|refer|recommend)|no debe|nunca|sin|darf nicht|nie|niemals|kein\w*)\b/iu;
const META = new Set(
  `response responses answer answers chunk chunks context contexts retrieved retrieval document documents passage request requests question questions user users
assistant model judge rate rating evaluate assess check criteria criterion yes no true false pass fail mention mentions mentioned include includes included
contain contains contained refer refers reference say says said state states stated talk talks discuss discusses provide provides provided give gives must should
need needs required require requires ensure make makes whether relevant relevance instruction instructions text content output clearly always explicitly
respuesta fragmento debe antwort abschnitt muss`
    .split(/\s+/)
    .map(stem),
);

type Clause = { text: string; negative: boolean; phrases: string[]; words: Set<string> };

function parseInstructions(instructions: string): Clause[] {
  const clauses: Clause[] = [];
  for (const text of instructions
    .split(/(?<=[.!?;])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean)) {
    const phrases = [...text.matchAll(/"([^"]+)"|“([^”]+)”|(?<!\p{L})'([^']{2,})'(?!\p{L})|`([^`]+)`/gu)]
      .map((m) => normalizeText(m[1] ?? m[2] ?? m[3] ?? m[4]).trim())
      .filter(Boolean);
    const words = phrases.length > 0 ? new Set<string>() : new Set([...contentWords(text)].filter((w) => !META.has(w)));
    if (phrases.length > 0 || words.size > 0) clauses.push({ text, negative: NEGATIVE.test(text), phrases, words });
  }
  return clauses;
}

type ClauseResult = { clause: Clause; matched: boolean; detail: string };

/** For must-not clauses only affirmative sentences count: "avoid root keys" does not recommend root keys. */
const affirmativeText = (text: string) =>
  text
    .split(/[.;!?\n]+/)
    .filter((s) => !NEGATIVE.test(s) && !/\b(?:not|no)\b/iu.test(s))
    .join(". ");

function evaluateClause(clause: Clause, fullText: string): ClauseResult {
  const judged = clause.negative ? affirmativeText(fullText) : fullText;
  const normalized = normalizeText(judged);
  if (clause.phrases.length > 0) {
    const present = clause.phrases.filter((p) => normalized.includes(p));
    // Positive: all phrases needed. Negative: any phrase is a violation.
    const matched = clause.negative ? present.length > 0 : present.length === clause.phrases.length;
    return {
      clause,
      matched,
      detail: `${present.length} of ${clause.phrases.length} quoted phrases present (${clause.phrases.map((p) => `"${p}"${present.includes(p) ? " ✓" : " ✗"}`).join(", ")})`,
    };
  }
  const ov = overlap(clause.words, contentWords(judged));
  const found = ov.found.length > 0 ? `: ${showWords(ov.found, clause.text)}` : "";
  return {
    clause,
    matched: ov.share >= CLAUSE_SHARE,
    detail: `${ov.found.length} of ${clause.words.size} keywords present (${percent(ov.share)})${found}`,
  };
}

function judgeText(clauses: Clause[], judged: string): { rating: Rating; rationale: string } {
  const results = clauses.map((c) => evaluateClause(c, judged));
  const failedPositive = results.filter((r) => !r.clause.negative && !r.matched);
  const violated = results.filter((r) => r.clause.negative && r.matched);
  const rating: Rating = failedPositive.length === 0 && violated.length === 0 ? "yes" : "no";
  const lines = results.map((r) => {
    const kind = r.clause.negative ? "must-not" : "must";
    const outcome = r.clause.negative ? (r.matched ? "violated" : "respected") : r.matched ? "met" : "not met";
    return `${kind} clause "${r.clause.text.slice(0, 60)}${r.clause.text.length > 60 ? "…" : ""}" ${outcome}: ${r.detail}`;
  });
  const rule = `positive clauses need all quoted phrases or ≥${percent(CLAUSE_SHARE)} of their keywords; negative clauses fail on the same condition`;
  return {
    rating,
    rationale: `Keyword approximation of the instructions (offline heuristic; it matches words, it does not understand the criteria). ${lines.join("; ")}. Rule: ${rule}.`,
  };
}

const NO_TERMS =
  "The offline heuristic found no keywords or quoted phrases to check in these instructions; configure an LLM judge for this custom metric.";

export function heuristicCustomAnswer(def: CustomJudgeDefinition, input: JudgeInput): JudgeVerdict {
  const clauses = parseInstructions(def.instructions);
  if (clauses.length === 0) return errorVerdict(NO_TERMS);
  const { rating, rationale } = judgeText(clauses, input.response ?? "");
  return { rating, score: null, rationale, errorMessage: null };
}

export function heuristicCustomRetrieval(def: CustomJudgeDefinition, input: JudgeInput): JudgeVerdict {
  const clauses = parseInstructions(def.instructions);
  if (clauses.length === 0) return errorVerdict(NO_TERMS, input.retrievedContext.length);
  const chunks: ChunkVerdict[] = input.retrievedContext.map((chunk, position) => {
    if (chunk.content === null || chunk.content.trim() === "")
      return {
        position,
        rating: "no",
        rationale: "The chunk has no text content to match the instructions' keywords against.",
        errorMessage: null,
      };
    const { rating, rationale } = judgeText(clauses, chunk.content);
    return { position, rating, rationale, errorMessage: null };
  });
  const yes = chunks.filter((c) => c.rating === "yes").length;
  const score = chunks.length === 0 ? null : yes / chunks.length;
  const rationale =
    chunks.length === 0
      ? "No chunks were retrieved, so precision is undefined."
      : `${yes} of ${chunks.length} chunks meet "${def.assessmentName}" by keyword approximation of the instructions: precision ${score?.toFixed(2)}.`;
  return { rating: null, score, rationale, errorMessage: null, chunks };
}
