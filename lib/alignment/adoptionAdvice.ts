import type { HeldOutComparison } from "./heldOutComparison";

/**
 * Which decision the aligned judge's page puts first, from what it measured on the held-out labels: a
 * page must not push a judge that measured worse. Adopt leads only when the aligned version agrees more
 * and the difference is real; Discard leads when it agrees less (real or not); otherwise neither leads.
 */
export type AdoptionAdvice = { primary: "adopt" | "discard" | null; adoptLabel: string; note: string | null };

export function adoptionAdvice(comparison: HeldOutComparison | null): AdoptionAdvice {
  if (!comparison) return { primary: null, adoptLabel: "Adopt", note: null };
  const { agreementA: original, agreementB: aligned } = comparison.paired;
  const worse =
    comparison.verdict === "agrees less (real)" || (original !== null && aligned !== null && aligned < original);
  if (comparison.verdict === "agrees more (real)") return { primary: "adopt", adoptLabel: "Adopt", note: null };
  if (worse)
    return {
      primary: "discard",
      adoptLabel: "Adopt anyway",
      note: "The aligned version agreed less with the held-out labels than the original: keeping the original is the measured choice.",
    };
  return {
    primary: null,
    adoptLabel: "Adopt",
    note: "No real difference on the held-out labels: either version measures as well as the other.",
  };
}
