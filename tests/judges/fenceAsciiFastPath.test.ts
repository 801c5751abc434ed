import { describe, expect, it } from "vitest";
import { defuse } from "@/lib/judges/prompts/fence";

// defuse's ASCII fast path returns plain-ASCII text untouched unless it spells
// the fence prefix ("untrusted" then a connector, blanks allowed before it) or
// opens a tag with "untrusted" ("<untrusted", "</ untrusted"); the full skeleton
// search must agree with it on every such text.

const PIECES = ["untrusted", "UNTRUSTED", "UnTrUsted", "_", "-", " ", "t", "untrust", "ed", "x", "<", ">", "\n", "/"];

/** Deterministic pseudo-random ASCII texts built from pieces that come close to the prefix. */
function texts(count: number): string[] {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + Math.floor(next() * 8) }, () => PIECES[Math.floor(next() * PIECES.length)]).join(""),
  );
}

describe("defuse on plain ASCII", () => {
  it("leaves a text without the prefix untouched, leaves no prefix behind, and agrees with the full search", () => {
    for (const text of texts(3000)) {
      const out = defuse(text);
      if (!/untrusted\s*[_-]|<\s*\/?\s*untrusted/i.test(text)) expect(out, text).toBe(text);
      expect(/untrusted\s*_/i.test(out), text).toBe(false);
      // A tag that opens with "untrusted" keeps it only as the harmless "untrusted-".
      expect(/<\s*\/?\s*untrusted(?!-)/i.test(out), text).toBe(false);
      // The non-ASCII path (a trailing é forces it) gives the same rewrite.
      expect(defuse(`${text}é`), text).toBe(`${out}é`);
    }
  });
});
