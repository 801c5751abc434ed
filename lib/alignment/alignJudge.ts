import type { Alignment } from "@/lib/contract/alignment";
import { alignmentHash } from "@/lib/judges/prompts/alignedTemplate";
import type { JudgeInput } from "@/lib/judges/types";
import { DEFAULT_EXAMPLE_BUDGET, selectExamples, type ExampleCandidate } from "./exampleSelection";
import { compareOnHeldOut, type HeldOutComparison, type HeldOutRow } from "./heldOutComparison";
import { DEFAULT_HELD_OUT_SHARE, splitLabelledUnits } from "./trainHeldOutSplit";

/**
 * One alignment of a judge, start to proof, with its dependencies injected (the store, the LLM):
 * split the labelled units (earlier held-out rows stay held out), choose the examples from the training
 * part, take the guidance given (or draft one from the training disagreements), then judge the
 * held-out units with the aligned version and compare it with the original's verdicts on the same
 * units. The original's verdicts are the base run's: the held-out rows are judged once more, by the
 * aligned version only.
 */
export type AlignmentUnit = {
  key: string;
  label: "yes" | "no";
  /** The original judge's verdict (the base run's); null where it errored or did not judge. */
  verdict: "yes" | "no" | null;
  /** What the judge reads for this unit. */
  input: JudgeInput;
  /** The retrieved chunk a per-chunk label is about; -1 for the whole row. */
  chunkPosition: number;
  /** The labeller's reason, when there is one. */
  reason: string | null;
};

export type AlignJudgeDeps = {
  /** The aligned version's verdict on one held-out unit; null when it errored. */
  judgeAligned(unit: AlignmentUnit, alignment: Alignment): Promise<"yes" | "no" | null>;
};

export type AlignOptions = {
  seed: string;
  heldOutShare?: number;
  /** Label keys every earlier alignment of this judge held out. */
  earlierHeldOut?: ReadonlySet<string>;
  /** Guidance the user accepted (their edit of a draft); null or absent: none. */
  guidance?: string | null;
  maxExampleTokens?: number;
  maxExamples?: number;
  alpha?: number;
};

export type AlignmentOutcome = {
  trainingKeys: string[];
  heldOutKeys: string[];
  alignment: Alignment;
  /** "+aligned/<hash>": the aligned prompt's version suffix. */
  promptSuffix: string;
  comparison: HeldOutComparison;
};

/** What an example shows of a unit: the request, and the response or the chunk it was labelled on. */
export function exampleText(unit: Pick<AlignmentUnit, "input" | "chunkPosition">): string {
  const judged =
    unit.chunkPosition >= 0
      ? `Retrieved chunk: ${unit.input.retrievedContext[unit.chunkPosition]?.content ?? ""}`
      : `Response: ${unit.input.response ?? ""}`;
  return `Request: ${unit.input.request}\n${judged}`;
}

/** The training disagreements a guidance draft is written from (lib/judges/prompts/alignmentGuidance.ts), before alignJudge. */
export function trainingDisagreements(
  units: readonly AlignmentUnit[],
  options: Pick<AlignOptions, "seed" | "heldOutShare" | "earlierHeldOut">,
) {
  const split = splitLabelledUnits(units, {
    seed: options.seed,
    heldOutShare: options.heldOutShare ?? DEFAULT_HELD_OUT_SHARE,
    alwaysHeldOut: options.earlierHeldOut,
  });
  return split.training.filter((u) => u.verdict !== null && u.verdict !== u.label).map(candidateOf);
}

function candidateOf(unit: AlignmentUnit): ExampleCandidate {
  return { key: unit.key, label: unit.label, verdict: unit.verdict, text: exampleText(unit), reason: unit.reason };
}

/** What an alignment is before it is measured: its split, its examples and guidance, its version suffix. */
export type AlignmentPlan = Omit<AlignmentOutcome, "comparison"> & { heldOut: AlignmentUnit[] };

/** The split (earlier held-out rows kept out of training), the examples chosen from training, the guidance given. */
export function planAlignment(units: readonly AlignmentUnit[], options: AlignOptions): AlignmentPlan {
  const split = splitLabelledUnits(units, {
    seed: options.seed,
    heldOutShare: options.heldOutShare ?? DEFAULT_HELD_OUT_SHARE,
    alwaysHeldOut: options.earlierHeldOut,
  });
  const examples = selectExamples(split.training.map(candidateOf), {
    seed: options.seed,
    maxTokens: options.maxExampleTokens ?? DEFAULT_EXAMPLE_BUDGET.maxTokens,
    maxExamples: options.maxExamples ?? DEFAULT_EXAMPLE_BUDGET.maxExamples,
  });
  const alignment: Alignment = {
    examples: examples.map(({ key, label, text, reason }) => ({ key, label, text, reason })),
    guidance: options.guidance?.trim() ? options.guidance.trim() : null,
  };
  return {
    trainingKeys: split.training.map((u) => u.key),
    heldOutKeys: split.heldOut.map((u) => u.key),
    heldOut: split.heldOut,
    alignment,
    promptSuffix: `+aligned/${alignmentHash(alignment)}`,
  };
}

/**
 * The proof: the aligned version judges each held-out unit, `concurrency` at a time (the run's setting; the
 * LLM client's limiter still holds the endpoint's), beside the original's verdict from the base run. A unit
 * is started only when a place is free, so a budget checked at its start sees what the finished ones cost.
 * `onJudged` hears of each unit as it is judged, for a progress bar.
 */
export async function measureHeldOut(
  heldOut: readonly AlignmentUnit[],
  alignment: Alignment,
  deps: AlignJudgeDeps,
  options: { alpha?: number; onJudged?: () => void; concurrency?: number } = {},
): Promise<HeldOutComparison> {
  const rows: HeldOutRow[] = new Array(heldOut.length);
  let next = 0;
  const lane = async () => {
    while (next < heldOut.length) {
      const index = next++;
      const unit = heldOut[index];
      const aligned = await deps.judgeAligned(unit, alignment);
      options.onJudged?.();
      rows[index] = { label: unit.label, original: unit.verdict, aligned };
    }
  };
  const lanes = Math.max(1, Math.min(options.concurrency ?? 8, heldOut.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  return compareOnHeldOut(rows, options.alpha);
}

export async function alignJudge(
  units: readonly AlignmentUnit[],
  deps: AlignJudgeDeps,
  options: AlignOptions,
): Promise<AlignmentOutcome> {
  const { heldOut, ...plan } = planAlignment(units, options);
  return { ...plan, comparison: await measureHeldOut(heldOut, plan.alignment, deps, { alpha: options.alpha }) };
}
