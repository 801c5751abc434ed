/**
 * ASSAY_AUTH_SECRET, read once for the server, the start script and the CLI
 * alike: trimmed here and nowhere else (so the length counted is the length
 * used), at least 32 characters, and not obviously guessable. Better Auth
 * signs sessions with it, so a secret someone can guess lets them forge a
 * session for any account.
 */
export type AuthSecret = { kind: "unset" } | { kind: "ok"; secret: string } | { kind: "weak"; message: string };

/** Better Auth wants at least 32 characters of secret. */
export const MIN_SECRET_LENGTH = 32;

/**
 * Bits a secret must carry by the estimates below (112: NIST's floor for a
 * key today). `openssl rand -base64 32` (44 characters) and `-hex 32` (64)
 * estimate at 187 and 217 bits at their lowest over 200,000 draws each;
 * "password" four times estimates at 88.
 */
export const MIN_SECRET_BITS = 112;

/** Share of a secret's three-character windows that must differ: a repeated word has as many as its length. */
const MIN_DISTINCT_TRIGRAM_SHARE = 0.75;

export const SECRET_HELP =
  "Set ASSAY_AUTH_SECRET to a random string of at least 32 characters (for example `openssl rand -base64 32`), " +
  "then create the first admin with `npm run user:create -- --admin you@example.com`.";

export function readAuthSecret(raw: string | undefined): AuthSecret {
  const secret = raw?.trim() ?? "";
  if (!secret) return { kind: "unset" };
  const characters = [...secret];
  if (characters.length < MIN_SECRET_LENGTH)
    return weak(`ASSAY_AUTH_SECRET is ${characters.length} characters; it needs at least ${MIN_SECRET_LENGTH}.`);
  const bits = estimatedBits(characters);
  if (bits < MIN_SECRET_BITS || distinctTrigramShare(characters) < MIN_DISTINCT_TRIGRAM_SHARE)
    return weak(
      `ASSAY_AUTH_SECRET looks guessable: it repeats or follows a pattern (about ${Math.floor(bits)} bits by a character-frequency estimate; it needs ${MIN_SECRET_BITS}).`,
    );
  return { kind: "ok", secret };
}

function weak(problem: string): AuthSecret {
  return { kind: "weak", message: `${problem} ${SECRET_HELP}` };
}

/**
 * The smaller of two Shannon estimates over the whole string: of its
 * characters ("aaaa…", "abcdabcd…" score low) and of the steps between
 * neighbouring characters ("abcdefgh…" scores low). An estimate, not a
 * measure: it catches the obvious, it cannot prove a secret random.
 */
function estimatedBits(characters: string[]): number {
  const codes = characters.map((character) => character.codePointAt(0) ?? 0);
  const steps = codes.slice(1).map((code, index) => code - codes[index]);
  return Math.min(characters.length * shannonEntropy(codes), steps.length * shannonEntropy(steps));
}

function shannonEntropy(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const share = count / values.length;
    bits -= share * Math.log2(share);
  }
  return bits;
}

function distinctTrigramShare(characters: string[]): number {
  const windows = characters.length - 2;
  const seen = new Set<string>();
  for (let index = 0; index < windows; index++) seen.add(characters.slice(index, index + 3).join(""));
  return seen.size / windows;
}
