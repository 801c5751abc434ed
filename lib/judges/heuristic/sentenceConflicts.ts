import { negates, swappedRelation } from "./polarity";
import {
  contentWords,
  extractQuantities,
  nameTerms,
  overlap,
  type Quantity,
  quantityFound,
  quote,
  splitSentences,
  termFound,
  tokenize,
} from "./text";

/**
 * Where a claim keeps the words of the text it matches but says something else: it negates it, swaps
 * a relation for its opposite, or puts another number or another name in its place. Negations and
 * relations are compared clause by clause ("If you don't pass credentials, the SDK looks…" holds a
 * negated clause and a plain one); numbers and names sentence by sentence, only in the sentence that
 * matches, so another event's year elsewhere in the text does not vouch for a changed one. A claim
 * conflicts only when every clause or sentence that matches it disagrees: one that agrees vouches for it.
 */
export const CONFLICT_MATCH_SHARE = 0.6;
/** The content words a claim (or clause) needs before it can be matched. */
const MIN_ANCHOR_WORDS = 2;

type Piece = { text: string; words: Set<string> };
export type TextSentence = Piece & { clauses: Piece[] };

const piece = (text: string): Piece => ({ text, words: contentWords(text) });

/**
 * Clauses, where a negation's reach ends: the parts between colons and semicolons, an opening "If …,"
 * ("When", "Unless", "Without", "Although", …) apart from the clause it conditions, and a contrast (", but", ", while",
 * ", whereas"). Other commas stay inside a clause: in "no one, including the root user, can delete it" the
 * "no one" governs it all. Parts with fewer than two content words are left out.
 */
const OPENING_CLAUSE =
  /^((?:if|when|whenever|unless|without|although|though|while|whereas|because|since|once|after|before|wenn|ohne|si|sin|cuando)\b[^,]*),\s+/iu;

function clausesOf(text: string): Piece[] {
  return text
    .split(/[:;]\s+|,\s+(?=(?:but|while|whereas|yet|pero|aber)\b)/iu)
    .flatMap((part) => {
      const opening = OPENING_CLAUSE.exec(part.trim());
      return opening ? [opening[1], part.trim().slice(opening[0].length)] : [part];
    })
    .map((part) => piece(part.trim()))
    .filter((part) => part.words.size >= MIN_ANCHOR_WORDS);
}

/** The sentences of some texts (chunks, or a response), in order, with their clauses. */
export function sentencesOf(texts: readonly string[]): TextSentence[] {
  return texts.flatMap((text) =>
    splitSentences(text).units.map((unit) => ({ ...piece(unit), clauses: clausesOf(unit) })),
  );
}

export type Conflict =
  | { kind: "negation"; matched: string }
  | { kind: "relation" | "number" | "name"; said: string; instead: string; matched: string };

/** What the claim says that the text it matches says otherwise, or null. `known`: text whose numbers and names the claim may use freely (the user's question). */
export function conflictWith(claim: string, sentences: readonly TextSentence[], known = ""): Conflict | null {
  for (const clause of clausesOf(claim)) {
    const conflict = clauseConflict(
      clause,
      sentences.flatMap((s) => s.clauses),
    );
    if (conflict) return conflict;
  }
  return sentenceConflict(piece(claim), sentences, known);
}

/** The pieces that hold ≥60% of the claim's words, best first. */
const matching = <T extends Piece>(claim: Piece, pieces: readonly T[]) =>
  pieces
    .map((p) => ({ p, share: overlap(claim.words, p.words).share }))
    .filter(({ share }) => share >= CONFLICT_MATCH_SHARE)
    .sort((a, b) => b.share - a.share)
    .map(({ p }) => p);

function clauseConflict(clause: Piece, clauses: readonly Piece[]): Conflict | null {
  const matches = matching(clause, clauses);
  const found = matches.map((m): Conflict | null => {
    if (negates(clause.text, m.text)) return { kind: "negation", matched: m.text };
    const swapped = swappedRelation(clause.text, m.text);
    return swapped ? { kind: "relation", ...swapped, matched: m.text } : null;
  });
  return found.length > 0 && found.every((c) => c !== null) ? found[0] : null;
}

function sentenceConflict(claim: Piece, sentences: readonly TextSentence[], known: string): Conflict | null {
  // A bare answer ("1948", "Paris") has nothing to place it in a sentence: the plain checks judge it.
  if (claim.words.size < MIN_ANCHOR_WORDS) return null;
  const found = matching(claim, sentences).map((m): Conflict | null => {
    const number = changedNumber(claim.text, m.text, known);
    if (number) return { kind: "number", ...number, matched: m.text };
    const name = changedName(claim.text, m.text, known);
    return name ? { kind: "name", ...name, matched: m.text } : null;
  });
  return found.length > 0 && found.every((c) => c !== null) ? found[0] : null;
}

/** A conflict in words: `subject` is what the claim is ("it"), `other` what it was matched in ("the passage"). */
export function describeConflict(conflict: Conflict, subject: string, other: string): string {
  const where = `${other}: ${quote(conflict.matched, 60)}`;
  switch (conflict.kind) {
    case "negation":
      return `${subject} and ${where} disagree: one negates what the other states`;
    case "relation":
      return `${subject} says "${conflict.said}" where ${where} says "${conflict.instead}"`;
    case "number":
      return `${subject} states ${conflict.said} where ${where} states ${conflict.instead}`;
    case "name":
      return `${subject} names "${conflict.said}" where ${where} names "${conflict.instead}"`;
  }
}

/** The word just before a number ("completed in 1932" → "in"): a changed number stands in the same place. */
function wordBefore(text: string, raw: string): string | null {
  const at = text.indexOf(raw);
  if (at < 0) return null;
  return tokenize(text.slice(0, at)).at(-1) ?? null;
}

/** Ordinals as numbers ("third", "4th"): "the fourth season" changes "the third season" as 4 changes 3. */
const ORDINALS = "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split(" ");
function ordinalsOf(text: string): Quantity[] {
  return tokenize(text).flatMap((token) => {
    const word = ORDINALS.indexOf(token);
    const numeric = /^(\d+)(?:st|nd|rd|th)$/.exec(token);
    const value = word >= 0 ? word + 1 : numeric ? Number(numeric[1]) : null;
    // "ordinal" is not a unit of the quantity parser: these compare only with each other.
    return value === null ? [] : [{ raw: token, value, dimension: "ordinal" as const, base: value }];
  });
}

/** Numbers as written, spelled-out ones and ordinals included. */
const numbersOf = (text: string) => [...extractQuantities(text, true), ...ordinalsOf(text)];

function changedNumber(claim: string, matched: string, known: string) {
  const stated = numbersOf(matched);
  const givenByUser = numbersOf(known);
  const claimed = numbersOf(claim);
  for (const q of claimed) {
    if (quantityFound(q, stated) || quantityFound(q, givenByUser)) continue;
    const before = wordBefore(claim, q.raw);
    const instead = stated.find(
      (s: Quantity) =>
        s.dimension === q.dimension &&
        // "one" is too common a word to stand for a number another sentence changed.
        (/\d/.test(s.raw) || s.value >= 2) &&
        !quantityFound(s, claimed) &&
        before !== null &&
        wordBefore(matched, s.raw) === before,
    );
    if (instead) return { said: q.raw, instead: instead.raw };
  }
  return null;
}

/** A name the claim puts where the matched sentence has another, in the same place (after the same word). */
function changedName(claim: string, matched: string, known: string) {
  const matchedTokens = new Set(tokenize(matched));
  const knownTokens = new Set(tokenize(known));
  const claimTokens = new Set(tokenize(claim));
  for (const said of nameTerms(claim)) {
    if (termFound(said, matchedTokens) || termFound(said, knownTokens)) continue;
    const before = wordBefore(claim, said);
    const instead = nameTerms(matched).find(
      (t) => !termFound(t, claimTokens) && before !== null && wordBefore(matched, t) === before,
    );
    if (instead) return { said, instead };
  }
  return null;
}
