import { STOPWORDS } from "./stopwords";

/**
 * Lexical primitives of the offline judge: tokens, content words, quantities
 * (numbers with units), code-like literals, sentence units and overlap.
 * Everything is deterministic and language-light on purpose: the rules have to
 * be explainable in one line of a rationale.
 */

/** Lower-case, Unicode-normalised text with HTML tags removed (chunks are often HTML). */
export function normalizeText(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/<[^>]*>/g, " ")
    .toLowerCase();
}

/** Words: runs of Unicode letters/digits; apostrophes are removed first so "don't" is one token. */
export function tokenize(text: string): string[] {
  return (
    normalizeText(text)
      .replace(/['’`]/g, "")
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** Light suffix stripping, applied identically to both sides of every comparison. */
export function stem(word: string): string {
  if (word.length <= 3 || /\p{N}/u.test(word)) return word;
  let w = word;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(ss|sh|ch|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  // create/created/creating/creation -> "cre", install/installation -> "install": one suffix at most.
  // [suffix, shortest stem left]: "-ly" keeps 4 letters so "apply" does not become "app".
  for (const [suffix, min] of [
    ["ation", 3],
    ["ated", 3],
    ["ating", 3],
    ["ate", 3],
    ["ing", 3],
    ["ed", 3],
    ["ly", 4],
  ] as const) {
    if (w.endsWith(suffix) && w.length - suffix.length >= min) {
      w = w.slice(0, -suffix.length);
      if (/([^aeioulsz])\1$/.test(w)) w = w.slice(0, -1); // "stopped" -> "stopp" -> "stop"
      break;
    }
  }
  if (w.length >= 4 && w.endsWith("e")) w = w.slice(0, -1); // name/names/naming -> "nam"
  return w;
}

/** Stemmed tokens that carry meaning: no stopwords, no bare numbers (numbers are compared as quantities), no single letters. */
export function contentWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const token of tokenize(text)) {
    if (token.length < 2 || STOPWORDS.has(token) || /^\p{N}+$/u.test(token)) continue;
    words.add(stem(token));
  }
  return words;
}

/** The first surface form of each stem, so rationales can say "daily" rather than "dai". */
export function surfaceForms(text: string): Map<string, string> {
  const forms = new Map<string, string>();
  for (const token of tokenize(text)) {
    const s = stem(token);
    if (!forms.has(s)) forms.set(s, token);
  }
  return forms;
}

/** `"daily", "rules"`: up to `max` stems shown as the words of `text` they came from. */
export function showWords(stems: string[], text: string, max = 6): string {
  const forms = surfaceForms(text);
  const shown = stems
    .slice(0, max)
    .map((s) => `"${forms.get(s) ?? s}"`)
    .join(", ");
  return stems.length > max ? `${shown} and ${stems.length - max} more` : shown;
}

export type Overlap = { share: number; found: string[]; missing: string[] };

/** Share of A's content words that also occur in B (1 when A has none). */
export function overlap(a: Set<string>, b: Set<string>): Overlap {
  const found: string[] = [];
  const missing: string[] = [];
  for (const word of a) (b.has(word) ? found : missing).push(word);
  return { share: a.size === 0 ? 1 : found.length / a.size, found, missing };
}

/** "ordinal": "third", "4th", found only by the offline judge's comparison of two sentences (sentenceConflicts.ts). */
export type Dimension = "time" | "data" | "currency" | "percent" | "ordinal";
export type Quantity = { raw: string; value: number; dimension: Dimension | null; base: number };

const UNITS: Record<string, [Dimension, number]> = {};
const addUnits = (dimension: Dimension, factor: number, names: string) =>
  names.split(" ").forEach((n) => (UNITS[n] = [dimension, factor]));
addUnits("time", 1, "s sec secs second seconds segundo segundos sekunde sekunden");
addUnits("time", 60, "min mins minute minutes minuto minutos minuten");
addUnits("time", 3600, "h hr hrs hour hours hora horas stunde stunden");
addUnits("time", 86_400, "d day days día días dia dias tag tage tagen");
addUnits("time", 604_800, "week weeks semana semanas woche wochen");
addUnits("time", 2_592_000, "month months mes meses monat monate monaten");
addUnits("time", 31_536_000, "year years año años jahr jahre jahren");
// Docs use GB and GiB interchangeably (the sample's billing page defines a GB as 2^30 bytes), so both are binary here.
addUnits("data", 1, "b byte bytes");
addUnits("data", 2 ** 10, "kb kib");
addUnits("data", 2 ** 20, "mb mib");
addUnits("data", 2 ** 30, "gb gib");
addUnits("data", 2 ** 40, "tb tib");
addUnits("data", 2 ** 50, "pb pib");
addUnits("percent", 1, "% percent prozent");
addUnits("currency", 1, "usd dollar dollars eur euro euros");
const SCALES: Record<string, number> = {
  thousand: 1e3,
  million: 1e6,
  millions: 1e6,
  millón: 1e6,
  millones: 1e6,
  millionen: 1e6,
  billion: 1e9,
  billions: 1e9,
};
const NUMBER_WORDS: Record<string, number> = Object.fromEntries(
  [
    "zero one two three four five six seven eight nine ten eleven twelve",
    "cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce",
    "null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf",
  ]
    .flatMap((list) => list.split(" ").map((w, i) => [w, i] as const))
    .filter(([w]) => w !== "once" && w !== "null"), // English "once", "null" in "version ID null"
);

// A number not glued to a preceding letter/digit and not the tail of an identifier such as "eu-central-1";
// "3-5" and "3–5" are ranges, so a digit before the hyphen is fine. An optional unit follows.
const NUMBER_RE =
  /(?<![\p{L}\p{N}_])(?<![\p{L}_]-)(?<![\p{L}\p{N}]\.)([$€£])?(\d{1,3}(?:,\d{3})+(?!\d)|\d+)(\.\d+)?(\s?%|\s?[\p{L}]+)?/gu;

/**
 * Numbers with their units: "7 days", "5 TiB", "$0.06", "99.9%", "604,800".
 * Values with a known unit also get a base value (seconds, bytes) so "1 hour" matches "3600 seconds".
 * With `numberWords`, small spelled-out numbers count too; used only for the text searched in, never for the claim checked.
 */
export function extractQuantities(text: string, numberWords = false): Quantity[] {
  const normalized = normalizeText(text);
  const quantities: Quantity[] = [];
  // Matched on the original casing so rationales quote "10 TB", not "10 tb".
  for (const m of text
    .normalize("NFKC")
    .replace(/<[^>]*>/g, " ")
    .matchAll(NUMBER_RE)) {
    const [raw, currency, integer, fraction, unitPart] = m;
    let value = Number(integer.replace(/,/g, "") + (fraction ?? ""));
    const unitWord = unitPart?.trim().toLowerCase();
    const glued = unitPart !== undefined && !/^\s/.test(unitPart);
    let dimension: Dimension | null = currency ? "currency" : null;
    let factor = 1;
    const known = unitWord !== undefined && (UNITS[unitWord] !== undefined || SCALES[unitWord] !== undefined);
    if (unitWord && UNITS[unitWord]) [dimension, factor] = currency ? ["currency", 1] : UNITS[unitWord];
    else if (unitWord && SCALES[unitWord]) value *= SCALES[unitWord];
    else if (glued) continue; // "9b2c…", "2xx", "17a": part of an identifier, not a quantity
    quantities.push({
      raw: (known ? raw : raw.slice(0, raw.length - (unitPart?.length ?? 0))).trim(),
      value,
      dimension,
      base: value * factor,
    });
  }
  if (numberWords) {
    const words = normalized.match(/[\p{L}%]+/gu) ?? [];
    words.forEach((word, i) => {
      const value = NUMBER_WORDS[word];
      if (value === undefined) return;
      const unit = UNITS[words[i + 1] ?? ""];
      quantities.push({
        raw: unit ? `${word} ${words[i + 1]}` : word,
        value,
        dimension: unit ? unit[0] : null,
        base: value * (unit ? unit[1] : 1),
      });
    });
  }
  return quantities;
}

/** Whether `needle` occurs among `haystack`: same base value within the same dimension, or the same bare value when a unit is missing on one side. */
export function quantityFound(needle: Quantity, haystack: Quantity[]): boolean {
  const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  return haystack.some((q) =>
    needle.dimension && q.dimension
      ? needle.dimension === q.dimension && close(needle.base, q.base)
      : close(needle.value, q.value),
  );
}

/**
 * Code-like literals that must match exactly: identifiers with a letter followed later by a digit,
 * such as "eu-central-1", "aes-256", "sha256". "5gib" or "30d" are quantities, not literals.
 */
export function extractLiterals(text: string): string[] {
  const found = normalizeText(text).match(/[\p{L}\p{N}]+(?:[-_.:/][\p{L}\p{N}]+)*/gu) ?? [];
  return [...new Set(found.filter((t) => /\p{L}.*\p{N}/u.test(t)))];
}

export function literalFound(literal: string, haystackText: string): boolean {
  return normalizeText(haystackText).includes(literal);
}

/** Everything a claim is checked on, computed once per text. */
export type TextFeatures = { text: string; words: Set<string>; quantities: Quantity[]; literals: string[] };
export function features(text: string): TextFeatures {
  const words = contentWords(text);
  const quantities = extractQuantities(text);
  const literals = extractLiterals(text);
  // Letters too short to be words ("F.E.A.R.", "U.S."): the text itself must appear as written.
  const acronym = normalizeText(text)
    .trim()
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
  if (words.size === 0 && quantities.length === 0 && literals.length === 0 && /\p{L}/u.test(acronym))
    literals.push(acronym);
  return { text, words, quantities, literals };
}

/** The text a claim is searched in: its words, its quantities (spelled-out numbers included) and its raw text for literals. */
export type Haystack = { text: string; words: Set<string>; quantities: Quantity[] };
export function haystack(text: string): Haystack {
  return { text, words: contentWords(text), quantities: extractQuantities(text, true) };
}

// Abbreviations and initials ("Lawrence M. Tanenbaum", "U.S.") do not end a sentence.
const ABBREVIATION_END = /(?:\b(?:e\.g|i\.e|etc|vs|approx|z\.\s?b|p\.\s?ej|bzw|ca|usw|dr|mr|mrs|nr)\.)$/i;
const INITIAL_END = /(?<![\p{L}\p{N}])\p{Lu}\.$/u;

/**
 * Sentence units of a markdown-ish text. Fenced code blocks are left out (counted separately:
 * lexical overlap on code is noise), each list item, table row or line is its own unit, and lines
 * are split after . ! ? followed by a space. Inline code keeps its backticks (see nameTerms).
 */
export function splitSentences(text: string): { units: string[]; codeBlocks: number } {
  let codeBlocks = 0;
  const prose = text.replace(/(```|~~~)[\s\S]*?(?:\1|$)/g, () => {
    codeBlocks += 1;
    return "\n";
  });
  const units: string[] = [];
  for (const rawLine of prose.replace(/<[^>]*>/g, " ").split(/\r?\n/)) {
    let line = rawLine.trim();
    if (/^\|?[\s:|-]+\|?$/.test(line) && line.includes("-")) continue; // table separator row
    line = line
      .replace(/^(?:#{1,6}\s+|>\s*|[-*+•]\s+|\d{1,3}[.)]\s+)/, "")
      .replace(/\*\*|__/g, "")
      .replace(/^\|\s*|\s*\|$/g, "")
      .replace(/\s*\|\s*/g, "; ")
      .trim();
    if (!line) continue;
    let current = "";
    for (const piece of line.split(/(?<=[.!?])\s+/)) {
      current = current ? `${current} ${piece}` : piece;
      if (!ABBREVIATION_END.test(current) && !INITIAL_END.test(current)) {
        units.push(current);
        current = "";
      }
    }
    if (current) units.push(current);
  }
  return { units, codeBlocks };
}

/** A unit worth checking: at least two content words, or a number / literal. "Yes.", "Both." and "Mit diesem Befehl:" are not claims. */
export function isSubstantive(unit: string): boolean {
  return contentWords(unit).size >= 2 || extractQuantities(unit).length > 0 || extractLiterals(unit).length > 0;
}

export const isUnitWord = (word: string): boolean =>
  UNITS[word.toLowerCase()] !== undefined || SCALES[word.toLowerCase()] !== undefined;

/**
 * Name-like terms a sentence introduces: one-word inline code and capitalised words
 * other than the first (product names, UI labels, acronyms such as "Run now", "RTC").
 * A hallucinated sentence usually brings such names along; a paraphrase does not.
 */
export function nameTerms(unit: string): string[] {
  const terms = new Set<string>();
  for (const m of unit.matchAll(/`([^`\s]+)`/g)) terms.add(m[1]);
  const words = unit
    .replace(/`[^`]*`/g, " ")
    .split(/\s+/)
    .filter(Boolean);
  words.forEach((raw, i) => {
    const word = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
    if (i === 0 || /[:.!?]$/.test(words[i - 1]) || /^I(?:['’]\w+)?$/.test(word)) return;
    if (/^\p{Lu}[\p{L}\p{N}]*(?:[-_][\p{L}\p{N}]+)*$/u.test(word) && !isUnitWord(word)) terms.add(word);
  });
  return [...terms];
}

/** Whether every token of `term` is a token of the text (token-level, so "CI" does not match "specific"). */
export function termFound(term: string, tokens: ReadonlySet<string>): boolean {
  const parts = tokenize(term);
  return parts.length > 0 && parts.every((p) => tokens.has(p) || (p.endsWith("s") && tokens.has(p.slice(0, -1)))); // "IDs" ~ "id"
}

/** A short quotation for rationales. */
export function quote(text: string, max = 70): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return `'${flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat}'`;
}

export const percent = (share: number): string => `${Math.round(share * 100)}%`;
