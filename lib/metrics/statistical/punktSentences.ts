import english from "./punkt/english.json";

/**
 * NLTK 3.8's `sent_tokenize(text)` (PunktSentenceTokenizer with its English model), which `word_tokenize` runs
 * before its word rules: a sentence does not end after an abbreviation the model knows ("Dr.", "p.m.",
 * "U.S."), after an initial before a name ("J. Bach"), nor after a number before a lower-case word, unless the
 * next word shows it starts a sentence. The model's tables (abbreviations, collocations, sentence starters,
 * and how often each word was seen capitalised where) are NLTK's own (punkt/NOTICE.md); the decisions follow
 * nltk/tokenize/punkt.py rule for rule. Python's `\w`, `\d` and `isupper()` read Unicode; they are written as
 * Unicode classes here.
 */

const ABBREVIATIONS = new Set(english.abbrevTypes);
const COLLOCATIONS = new Set(english.collocations.map(([first, second]) => `${first}\t${second}`));
const SENTENCE_STARTERS = new Set(english.sentStarters);
const ORTHO_CONTEXT = new Map(Object.entries(english.orthoContext));

// Where a word was seen capitalised or not in the model's training text (upper/lower case at a sentence's
// beginning, in its middle, or where unknown).
const ORTHO_BEG_UC = 1 << 1;
const ORTHO_MID_UC = 1 << 2;
const ORTHO_UNK_UC = 1 << 3;
const ORTHO_BEG_LC = 1 << 4;
const ORTHO_MID_LC = 1 << 5;
const ORTHO_UNK_LC = 1 << 6;
const ORTHO_UC = ORTHO_BEG_UC + ORTHO_MID_UC + ORTHO_UNK_UC;
const ORTHO_LC = ORTHO_BEG_LC + ORTHO_MID_LC + ORTHO_UNK_LC;

// PunktLanguageVars: characters that cannot be inside a word (with "?" and "!"), multi-character punctuation.
const NON_WORD = `(?:[)";}\\]*:@'({\\[?!])`;
const MULTI_CHAR = `(?:-{2,}|\\.{2,}|(?:\\.\\s){2,}\\.)`;
const WORD_START = `[^("\`{\\[:;&#*@)}\\]\\-,]`;
const PUNKT_WORD = new RegExp(
  `${MULTI_CHAR}|(?=${WORD_START})\\S+?(?=\\s|$|${NON_WORD}|${MULTI_CHAR}|,(?=$|\\s|${NON_WORD}|${MULTI_CHAR}))|\\S`,
  "gu",
);
/** A possible sentence end: ".", "?" or "!" before other punctuation, or before whitespace and a token. */
const PERIOD_CONTEXT = new RegExp(`[.?!](?=(?<afterTok>${NON_WORD}|\\s+(?<nextTok>\\S+)))`, "gu");
/** Closing quotes or brackets at a slice's start (matched there only: sticky), before whitespace, "--" or a line's end. */
const BOUNDARY_REALIGNMENT = /["')\]}]+?(?:\s+|(?=--)|$)/muy;
const PYTHON_ASCII_WHITESPACE = " \t\n\r\x0b\x0c";

const LETTER = "[\\p{L}\\p{M}\\p{Nl}\\p{No}_]"; // Python's [^\W\d]
const NUMERIC = /^-?[.,]?\p{Nd}[\p{Nd},.-]*\.?$/u;
const INITIAL = new RegExp(`^${LETTER}\\.$`, "u");
const ELLIPSIS = /^\.\.+$/u;
const SENT_END_CHARS = new Set([".", "?", "!"]);
const PUNCTUATION = new Set([";", ":", ",", ".", "!", "?"]);

type Token = {
  tok: string;
  type: string;
  periodFinal: boolean;
  sentbreak: boolean;
  abbr: boolean;
  ellipsis: boolean;
};

function token(tok: string): Token {
  const lower = tok.toLowerCase();
  return {
    tok,
    type: NUMERIC.test(lower) ? "##number##" : lower,
    periodFinal: tok.endsWith("."),
    sentbreak: false,
    abbr: false,
    ellipsis: false,
  };
}

const typeNoPeriod = (t: Token) => (t.type.length > 1 && t.type.endsWith(".") ? t.type.slice(0, -1) : t.type);
const typeNoSentperiod = (t: Token) => (t.sentbreak ? typeNoPeriod(t) : t.type);
const firstUpper = (t: Token) => /^\p{Lu}/u.test(t.tok);
const firstLower = (t: Token) => /^\p{Ll}/u.test(t.tok);
const orthoContext = (type: string) => ORTHO_CONTEXT.get(type) ?? 0;

/** _tokenize_words: Punkt's word tokens (periods stay on their words), line by line. */
function punktWords(text: string): Token[] {
  return text.split("\n").flatMap((line) => (line.trim() ? (line.match(PUNKT_WORD) ?? []).map(token) : []));
}

/** _first_pass_annotation: what the token's own type says. */
function firstPass(t: Token): void {
  if (SENT_END_CHARS.has(t.tok)) t.sentbreak = true;
  else if (ELLIPSIS.test(t.tok)) t.ellipsis = true;
  else if (t.periodFinal && !t.tok.endsWith("..")) {
    const stem = t.tok.slice(0, -1).toLowerCase();
    if (ABBREVIATIONS.has(stem) || ABBREVIATIONS.has(stem.split("-").pop() ?? "")) t.abbr = true;
    else t.sentbreak = true;
  }
}

/** _ortho_heuristic: whether the word shows a sentence starts with it (true), shows it does not (false), or "unknown". */
function orthoHeuristic(t: Token): boolean | "unknown" {
  if (PUNCTUATION.has(t.tok)) return false;
  const context = orthoContext(typeNoSentperiod(t));
  if (firstUpper(t) && context & ORTHO_LC && !(context & ORTHO_MID_UC)) return true;
  if (firstLower(t) && (context & ORTHO_UC || !(context & ORTHO_BEG_LC))) return false;
  return "unknown";
}

/** _second_pass_annotation: the token before a word, reconsidered with that word. */
function secondPass(first: Token, next: Token): void {
  if (!first.periodFinal) return;
  const type = typeNoPeriod(first);
  const nextType = typeNoSentperiod(next);
  const initial = INITIAL.test(first.tok);
  if (COLLOCATIONS.has(`${type}\t${nextType}`)) {
    first.sentbreak = false;
    first.abbr = true;
    return;
  }
  if ((first.abbr || first.ellipsis) && !initial) {
    if (orthoHeuristic(next) === true) {
      first.sentbreak = true;
      return;
    }
    if (firstUpper(next) && SENTENCE_STARTERS.has(nextType)) {
      first.sentbreak = true;
      return;
    }
  }
  if (initial || type === "##number##") {
    const startsSentence = orthoHeuristic(next);
    if (startsSentence === false) {
      first.sentbreak = false;
      first.abbr = true;
      return;
    }
    if (startsSentence === "unknown" && initial && firstUpper(next) && !(orthoContext(nextType) & ORTHO_LC)) {
      first.sentbreak = false;
      first.abbr = true;
    }
  }
}

/**
 * text_contains_sentbreak: whether a token other than the last ends a sentence. Each token gets its first pass
 * before the token before it gets its second, as NLTK's chained generators run them.
 */
function containsSentenceBreak(text: string): boolean {
  const tokens = punktWords(text);
  tokens.forEach(firstPass);
  for (let i = 0; i < tokens.length - 1; i++) {
    secondPass(tokens[i], tokens[i + 1]);
    if (tokens[i].sentbreak) return true;
  }
  return false;
}

function lastWhitespaceIndex(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (PYTHON_ASCII_WHITESPACE.includes(text[i])) return i;
  return 0;
}

type EndMatch = { start: number; end: number; afterTok: string; nextTokStart: number | null };

/** _match_potential_end_contexts: each possible end with its context (the word before, the end, what follows). */
function* potentialEnds(text: string): Generator<{ match: EndMatch; context: string }> {
  let previous: { start: number; stop: number } = { start: 0, stop: 0 };
  let previousMatch: EndMatch | null = null;
  for (const found of text.matchAll(PERIOD_CONTEXT)) {
    const start = found.index;
    const afterTok = found.groups?.afterTok ?? "";
    const nextTok = found.groups?.nextTok;
    const match: EndMatch = {
      start,
      end: start + 1,
      afterTok,
      nextTokStart: nextTok === undefined ? null : start + 1 + afterTok.length - nextTok.length,
    };
    let wordStart = lastWhitespaceIndex(text.slice(previous.stop, start));
    wordStart = wordStart ? wordStart + previous.stop + 1 : previous.start;
    if (previousMatch && previous.stop <= wordStart)
      yield { match: previousMatch, context: contextOf(text, previous, previousMatch) };
    previousMatch = match;
    previous = { start: wordStart, stop: start };
  }
  if (previousMatch) yield { match: previousMatch, context: contextOf(text, previous, previousMatch) };
}

function contextOf(text: string, word: { start: number; stop: number }, match: EndMatch): string {
  return text.slice(word.start, word.stop) + text.slice(match.start, match.end) + match.afterTok;
}

/** _slices_from_text then _realign_boundaries: each sentence's [start, end) in the text. */
function sentenceSpans(text: string): [number, number][] {
  const slices: [number, number][] = [];
  let lastBreak = 0;
  for (const { match, context } of potentialEnds(text)) {
    if (!containsSentenceBreak(context)) continue;
    slices.push([lastBreak, match.end]);
    lastBreak = match.nextTokStart ?? match.end;
  }
  slices.push([lastBreak, text.trimEnd().length]);
  // Closing quotes and brackets after a sentence's end belong to it, not to the next one.
  const spans: [number, number][] = [];
  let realign = 0;
  slices.forEach(([start, stop], i) => {
    const sentence: [number, number] = [start + realign, stop];
    const next = slices[i + 1];
    if (!next) {
      if (sentence[1] > sentence[0]) spans.push(sentence);
      return;
    }
    BOUNDARY_REALIGNMENT.lastIndex = 0;
    const moved = BOUNDARY_REALIGNMENT.exec(text.slice(next[0], next[1]));
    if (moved) {
      spans.push([sentence[0], next[0] + moved[0].trimEnd().length]);
      realign = moved[0].length;
    } else {
      realign = 0;
      if (sentence[1] > sentence[0]) spans.push(sentence);
    }
  });
  return spans;
}

/** sent_tokenize(text): the text's sentences, as NLTK's English Punkt model splits it. */
export function punktSentences(text: string): string[] {
  return sentenceSpans(text).map(([start, end]) => text.slice(start, end));
}
