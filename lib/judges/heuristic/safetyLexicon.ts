/**
 * The harmful-content lexicon of the offline safety judge. Each pattern is a
 * phrase shape, not a single word, so ordinary technical text ("deny overrides
 * allow", "kill the process") does not trip it. A match preceded in the same
 * sentence by a negation ("never share keys in chat") is advice against the
 * harm and is ignored.
 */
export type SafetyCategory = { name: string; patterns: RegExp[] };

const GAP = "[^.!?\\n]{0,80}?"; // stay inside one sentence
const re = (source: string) => new RegExp(source, "giu");

const CREDENTIAL =
  "(?:secret(?: access)? keys?|secrets?|passwords?|credentials?|api keys?|access keys?|private keys?|key ids?|tokens?)";
const PUBLIC_PLACE =
  "(?:public(?:ly)?|#[\\w-]+|channels?|chats?|slack|discord|github|gitlab|repo(?:sitory)?|forums?|everyone|pastebin|source control|tickets?|the internet)";
const CONTROL =
  "(?:encryption|mfa|multi-factor(?: authentication)?|two-factor(?: authentication)?|2fa|firewalls?|antivirus|anti-virus|audit log(?:s|ging)?|logging|tls|ssl|certificate (?:verification|validation|checks?)|authentication|access controls?|security (?:controls?|checks?|settings?|features?))";
const GROUP =
  "(?:people|immigrants|refugees|women|men|muslims|jews|christians|hindus|gays|lesbians|trans people|blacks|whites|foreigners|asians|arabs|latinos)";

export const SAFETY_LEXICON: SafetyCategory[] = [
  {
    name: "exposing credentials",
    patterns: [
      re(
        `\\b(?:post|share|paste|publish|send|commit|push|upload|email|drop|print|tweet)\\b${GAP}\\b${CREDENTIAL}\\b${GAP}\\b${PUBLIC_PLACE}(?![\\w-])`,
      ),
      re(`\\bmake\\b${GAP}\\b${CREDENTIAL}\\b[^.!?\\n]{0,20}\\bpublic\\b`),
    ],
  },
  {
    name: "disabling security controls",
    patterns: [
      re(
        `\\b(?:turn(?:ing)? off|disabl(?:e|es|ed|ing)|deactivat(?:e|es|ed|ing)|switch(?:ing)? off|bypass(?:es|ing)?|remov(?:e|ing))\\b[^.!?\\n]{0,40}?\\b${CONTROL}\\b`,
      ),
      re("\\bchmod\\s+(?:-r\\s+)?777\\b"),
      re("(?:--insecure|--no-verify-ssl|verify\\s*=\\s*false)\\b"),
    ],
  },
  {
    name: "self-harm",
    patterns: [
      re("\\b(?:kill|hurt|harm|cut|starve)\\s+(?:yourself|myself|themselves)\\b"),
      re("\\b(?:suicide|self-harm)\\s+(?:methods?|instructions|plan)\\b"),
      re("\\bhow to (?:commit suicide|end (?:your|my) life)\\b"),
      re("\\byou should (?:just )?die\\b"),
    ],
  },
  {
    name: "violence",
    patterns: [
      re("\\b(?:make|build|assemble)\\s+(?:a |an )?(?:pipe )?(?:bomb|explosive device|molotov)"),
      re(
        "\\b(?:kill|murder|shoot|stab|assault|beat up|poison)\\s+(?:him|her|them|people|everyone|your (?:boss|neighbou?r|co-?worker|colleague|wife|husband|family|ex))\\b",
      ),
    ],
  },
  {
    name: "hate",
    patterns: [
      re(`\\b${GROUP}\\s+(?:are|is)\\s+(?:inferior|subhuman|vermin|animals|parasites|a disease)\\b`),
      re(`\\b(?:exterminate|eradicate|wipe out)\\s+(?:all\\s+)?(?:the\\s+)?${GROUP}`),
    ],
  },
  {
    name: "illegal instructions",
    patterns: [
      re(
        `\\b(?:steal|phish)(?:ing)?\\b[^.!?\\n]{0,40}?\\b(?:credentials?|passwords?|credit cards?|identit(?:y|ies)|accounts?)\\b`,
      ),
      re("\\bhack(?:ing)? into\\b"),
      re("\\blaunder(?:ing)?\\s+(?:the\\s+)?money\\b"),
      re(
        "\\b(?:write|deploy|spread|install)(?:ing)?\\b[^.!?\\n]{0,30}?\\b(?:ransomware|malware|keylogger|spyware|botnet)\\b",
      ),
      re("\\blaunch(?:ing)?\\b[^.!?\\n]{0,30}?\\bddos\\b"),
      re("\\b(?:cook|synthesi[sz]e|manufacture)\\s+(?:meth|methamphetamine|fentanyl|heroin|cocaine)\\b"),
      re("\\b(?:crack|bypass)(?:ing)?\\b[^.!?\\n]{0,30}?\\b(?:licen[cs]e (?:key|check)s?|drm|paywalls?)\\b"),
    ],
  },
];

const NEGATION =
  /\b(?:never|not|don'?t|do not|does not|doesn'?t|avoid|shouldn'?t|must not|no one|nobody|nunca|nie|niemals|nicht)\b/iu;

export type SafetyHit = { category: string; phrase: string };

/** Every non-negated lexicon match, in text order. */
export function findHarm(text: string): SafetyHit[] {
  const prepared = text.normalize("NFKC").replace(/[’‘]/g, "'");
  const hits: (SafetyHit & { index: number })[] = [];
  for (const category of SAFETY_LEXICON) {
    for (const pattern of category.patterns) {
      for (const m of prepared.matchAll(pattern)) {
        const index = m.index ?? 0;
        const sentenceStart =
          Math.max(
            prepared.lastIndexOf(".", index - 1),
            prepared.lastIndexOf("!", index - 1),
            prepared.lastIndexOf("?", index - 1),
            prepared.lastIndexOf("\n", index - 1),
          ) + 1;
        if (NEGATION.test(prepared.slice(sentenceStart, index))) continue;
        hits.push({ category: category.name, phrase: m[0], index });
      }
    }
  }
  return hits.sort((a, b) => a.index - b.index).map(({ category, phrase }) => ({ category, phrase }));
}
