import { punktSentences } from "./punktSentences";

/**
 * NLTK 3.8's `word_tokenize`, which DeepEval's BLEU scorer tokenises with: each sentence through
 * NLTKWordTokenizer (the Penn Treebank rules improved by NLTK: quotes, punctuation, brackets, clitics such as
 * "n't" and "'s", and MacIntyre's contractions), rule for rule. Python's `\w`, `\d` and `\b` match Unicode
 * letters and digits; JavaScript's do not, so they are written as Unicode classes here.
 *
 * NLTK splits sentences first with its Punkt model (punktSentences.ts): a sentence's final period becomes a
 * token of its own, an abbreviation's ("Dr.", "p.m.") stays on its word.
 */
const WORD = "[\\p{L}\\p{N}_]";
const NOT_AFTER_WORD = `(?<!${WORD})`;
const NOT_BEFORE_WORD = `(?!${WORD})`;

type Rule = [RegExp, string];

const STARTING_QUOTES: Rule[] = [
  [/([«“‘„]|`+)/gu, " $1 "],
  [/^"/u, "``"],
  [/(``)/gu, " $1 "],
  [/([ ([{<])("|'{2})/gu, "$1 `` "],
  [new RegExp(`(')(?!re|ve|ll|m|t|s|d|n)(${WORD})${NOT_BEFORE_WORD}`, "giu"), "$1 $2"],
];

const PUNCTUATION: Rule[] = [
  [/([^.])(\.)([\]\)}>"'»”’ ]*)\s*$/u, "$1 $2 $3 "],
  [/([:,])([^\p{Nd}])/gu, " $1 $2"],
  [/([:,])$/u, " $1 "],
  [/\.{2,}/gu, " $& "],
  [/[;@#$%&]/gu, " $& "],
  [/([^.])(\.)([\]\)}>"']*)\s*$/u, "$1 $2$3 "],
  [/[?!]/gu, " $& "],
  [/([^'])' /gu, "$1 ' "],
  [/[*]/gu, " $& "],
];

const ENDING_QUOTES: Rule[] = [
  [/([»”’])/gu, " $1 "],
  [/''/gu, " '' "],
  [/"/gu, " '' "],
  [/([^' ])('[sS]|'[mM]|'[dD]|') /gu, "$1 $2 "],
  [/([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) /gu, "$1 $2 "],
];

/** MacIntyre's contractions that NLTK splits ("cannot" → "can not", "gonna" → "gon na"). */
const CONTRACTIONS: RegExp[] = [
  ...[
    ["can", "not"],
    ["d", "'ye"],
    ["gim", "me"],
    ["gon", "na"],
    ["got", "ta"],
    ["lem", "me"],
    ["more", "'n"],
  ].map(([a, b]) => new RegExp(`${NOT_AFTER_WORD}(${a})(${b})${NOT_BEFORE_WORD}`, "giu")),
  new RegExp(`${NOT_AFTER_WORD}(wan)(na)(?=\\s)`, "giu"),
  new RegExp(`(?<= )('t)(is)${NOT_BEFORE_WORD}`, "giu"),
  new RegExp(`(?<= )('t)(was)${NOT_BEFORE_WORD}`, "giu"),
];

/** One sentence's tokens, as NLTKWordTokenizer().tokenize(sentence) gives them. */
export function tokenizeSentence(sentence: string): string[] {
  let text = sentence;
  for (const [pattern, replacement] of STARTING_QUOTES) text = text.replace(pattern, replacement);
  for (const [pattern, replacement] of PUNCTUATION) text = text.replace(pattern, replacement);
  text = text.replace(/[\]\[(){}<>]/gu, " $& ");
  text = text.replace(/--/gu, " -- ");
  text = ` ${text} `;
  for (const [pattern, replacement] of ENDING_QUOTES) text = text.replace(pattern, replacement);
  // CONTRACTIONS3's patterns start with a space, which they replace: the lookbehind keeps it instead.
  for (const pattern of CONTRACTIONS) text = text.replace(pattern, " $1 $2 ");
  return text.split(/\s+/u).filter((token) => token !== "");
}

/** word_tokenize(text): the tokens of each sentence (split by NLTK's English Punkt model) in turn. */
export function wordTokenize(text: string): string[] {
  return punktSentences(text).flatMap(tokenizeSentence);
}
