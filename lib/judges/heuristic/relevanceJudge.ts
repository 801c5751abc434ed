import type { JudgeVerdict } from "@/lib/contract/judgeResult";
import type { JudgeInput } from "../types";
import { answerPolarity, requestTerms, RULES } from "./claims";
import { contentWords, extractQuantities, overlap, percent, showWords, splitSentences, tokenize } from "./text";

/** What kind of answer a question asks for, read from its opening words; null when the request is not a question. */
type QuestionKind = "yes/no" | "number or date" | "name or phrase";

// English, Spanish and German openings of a yes/no question ("Are both…", "Can I rely…", "¿Es…", "Kann ich…").
const YES_NO_OPENING =
  /^(?:is|are|was|were|am|do|does|did|can|could|has|have|had|will|would|should|shall|may|might|must|isnt|arent|wasnt|werent|dont|doesnt|didnt|cant|es|son|está|están|puedo|puede|hay|ist|sind|war|kann|können|gibt|hat|haben|muss|soll)$/;
// Questions whose answer is a number or a date (tokens, since \b does not see accented letters).
const NUMBER_QUESTION =
  /\b(?:how (?:many|much|long|old|far|big|tall|high|often|large)|what (?:year|percentage|percent|number|age|date|population)|which year|when|wie (?:viele?|lange|alt))\b|\b(?:population|year|percentage) (?:of )?what\b|\bwhat (?:is|was) (?:the |its |their )?(?:population|year|percentage)\b/;
const NUMBER_WORDS = new Set(["cuánto", "cuánta", "cuántos", "cuántas", "wann"]);
// Question words; Spanish only with its accent ("que", "como" are also "that", "as"), German "was" left out (English "was").
const WH_WORDS = new Set(
  "who whom whose what which where why how quién quiénes qué cuál cuáles dónde cómo cuándo wer wen wem wessen welche welcher welches welchen welchem wo wie warum".split(
    " ",
  ),
);
// Auxiliary verbs: a response containing one is a statement, not a bare name or phrase.
const STATEMENT_VERB =
  /^(?:is|are|was|were|be|been|being|has|have|had|do|does|did|will|would|can|could|should|may|might|must|isnt|arent|wasnt|werent|es|son|era|fue|ist|sind|war|hat|haben|wird)$/;

/** A statement rather than a bare name or phrase: it has an auxiliary or a past-tense verb ("starred", "attended"). */
const isStatement = (words: string[]) =>
  words.some((w, i) => STATEMENT_VERB.test(w) || (i > 0 && /^[a-z]{3,}ed$/.test(w)));

function questionKind(request: string): QuestionKind | null {
  const text = request
    .trim()
    .toLowerCase()
    .replace(/^[¿¡\s]+/, "");
  const tokens = tokenize(text);
  if (YES_NO_OPENING.test(tokens[0] ?? "")) return "yes/no";
  if (NUMBER_QUESTION.test(text) || tokens.some((t) => NUMBER_WORDS.has(t))) return "number or date";
  if (tokens.some((t) => WH_WORDS.has(t)) || text.endsWith("?")) return "name or phrase";
  return null;
}

const hasNumberOrDate = (text: string) =>
  extractQuantities(text, true).length > 0 || /\b(?:1[0-9]|20)\d{2}\b/.test(text);

/**
 * A direct answer: the response answers the question in the form it asks for, without
 * repeating its words. A yes/no question answered "Yes…"/"No…" (at any length); a short
 * response (one sentence, at most RULES.directAnswerMaxWords words) that gives a number or
 * date to a how-many/when question, or a bare name or phrase ("Delhi", "Richard Nixon") to a
 * who/what/which/where question, or shares at least one word with the question.
 * Returns why it is one, or null.
 */
function directAnswer(request: string, response: string, shared: number): string | null {
  const kind = questionKind(request);
  if (kind === null) return null;
  if (kind === "yes/no" && answerPolarity(response) !== null)
    return `it opens with "${answerPolarity(response)}", a direct answer to a yes/no question`;
  const units = splitSentences(response).units;
  const words = tokenize(response);
  if (units.length !== 1 || words.length === 0 || words.length > RULES.directAnswerMaxWords) return null;
  if (shared > 0) return `it is a one-sentence answer (${words.length} words) sharing a word with the question`;
  if (kind === "number or date")
    return hasNumberOrDate(response)
      ? `it is a short answer (${words.length} words) giving a number or date, as the question asks`
      : null;
  if (kind === "name or phrase" && !isStatement(words))
    return `it is a bare name or phrase (${words.length} words) answering a ${kind} question`;
  return null;
}

/**
 * relevance_to_query: the response reuses the request's vocabulary (≥50% of the last turn's
 * content words, or at least 2 of them, with the earlier user turns when the last one is a
 * short follow-up), or it is a direct answer to the question (see directAnswer). Purely
 * lexical: a relevant answer in other words and at length (a poem, a translation) scores "no",
 * and a short answer of the right form is accepted without knowing whether it fits the topic.
 */
export function heuristicRelevanceToQuery(input: JudgeInput): JudgeVerdict {
  const verdict = (rating: "yes" | "no", rationale: string): JudgeVerdict => ({
    rating,
    score: null,
    rationale,
    errorMessage: null,
  });
  const { last, context, usedHistory } = requestTerms(input);
  const response = input.response ?? "";
  const responseWords = contentWords(response);
  const contextOverlap = overlap(context, responseWords);
  const direct = directAnswer(input.request, response, contextOverlap.found.length);
  if (context.size < 2 && direct === null) {
    const which =
      context.size === 0 ? "no content words" : `only one content word (${showWords([...context], input.request)})`;
    return verdict(
      "yes",
      `The request has ${which} to compare (e.g. thanks or a greeting), too little for lexical overlap to show the response is off-topic; treated as relevant.`,
    );
  }
  const lastOverlap = overlap(last, responseWords);
  const byWords =
    (last.size > 0 && lastOverlap.share >= RULES.relevanceShare) ||
    contextOverlap.found.length >= RULES.relevanceMinWords;
  const requestText = input.messages
    .filter((m) => m.role === "user")
    .map((m) => m.content)
    .concat(input.request)
    .join("\n");
  const words = (list: string[], n: number) => showWords(list, requestText, n);
  const shared = contextOverlap.found.length > 0 ? `shared: ${words(contextOverlap.found, 8)}` : "none shared";
  const absent = contextOverlap.missing.length > 0 ? `; absent: ${words(contextOverlap.missing, 6)}` : "";
  const history = usedHistory
    ? ` and ${contextOverlap.found.length} of ${context.size} counting the earlier user turns (the last turn is short)`
    : "";
  const directNote = !byWords && direct !== null ? ` Relevant as a direct answer: ${direct}.` : "";
  return verdict(
    byWords || direct !== null ? "yes" : "no",
    `The response uses ${lastOverlap.found.length} of ${last.size} content words of the request (${percent(lastOverlap.share)})${history}; ${shared}${absent}.${directNote} Rule: relevant when ≥${percent(RULES.relevanceShare)} of the request's words or at least ${RULES.relevanceMinWords} of them are used, or when it is a direct answer (yes/no to a yes/no question; a number or date, a bare name or phrase, or one sentence sharing a word, in at most ${RULES.directAnswerMaxWords} words).`,
  );
}
