import { userIdentitiesById } from "@/lib/db/accounts/userQueries";
import type { Db } from "@/lib/db/client";
import {
  MAX_PATTERN_LABELLERS,
  readGoldCounts,
  readLabelPatterns,
  readMetricLabellers,
  type GoldCounts,
} from "@/lib/db/labels/peopleLabelQueries";
import {
  alternativeAnnotatorTest,
  krippendorffAlpha,
  peopleAgreement,
  type AlphaLevel,
  type AlphaResult,
  type AltTestResult,
  type LabelValue,
  type PeopleAgreement,
} from "@/lib/stats";
import { labellerName } from "./labellerName";

/**
 * How far the people who labelled one metric agree with each other, and, for a run, how its judge
 * compares with them: what the run's agreement panel, the API and the CLI show beside the judge's κ
 * against the gold labels. Null when at most one person labelled the metric: a dataset labelled by one
 * person reads exactly as before.
 */
export type JudgeAmongPeople = {
  /** α with the judge counted as one more labeller, beside the people's own α. */
  alphaWithJudge: AlphaResult;
  /** The judge against each person on the rows both labelled. */
  pairs: { labeller: number; rows: number; agreement: number | null; alpha: AlphaResult }[];
  altTest: AltTestResult;
};

export type PeopleReport = {
  metric: string;
  kind: "rating" | "score";
  labellers: { id: string; name: string; labels: number }[];
  /** Labellers beyond the first MAX_PATTERN_LABELLERS (by labels given), left out of every figure. */
  leftOut: number;
  agreement: PeopleAgreement;
  gold: GoldCounts;
  judge: JudgeAmongPeople | null;
};

/** The level α is read at: yes/no labels are categories, scores are numbers on an interval scale. */
export const levelOfKind = (kind: "rating" | "score"): AlphaLevel => (kind === "score" ? "interval" : "nominal");

export async function readPeopleAgreement(
  db: Db,
  query: { datasetId: string; metric: string; kind: "rating" | "score"; runId?: string; epsilon?: number },
): Promise<PeopleReport | null> {
  const all = await readMetricLabellers(db, query.datasetId, query.metric);
  if (all.length < 2) return null;
  const counted = all.slice(0, MAX_PATTERN_LABELLERS);
  const patterns = await readLabelPatterns(db, { ...query, labellers: counted.map((l) => l.labeller) });
  const level = levelOfKind(query.kind);
  const names = await userIdentitiesById(
    db,
    counted.map((l) => l.labeller),
  );
  return {
    metric: query.metric,
    kind: query.kind,
    labellers: counted.map(({ labeller, labels }) => ({
      id: labeller,
      name: labeller === "" ? "unnamed" : labellerName({ labelledBy: labeller, source: "import" }, names),
      labels,
    })),
    leftOut: all.length - counted.length,
    agreement: peopleAgreement(patterns, counted.length, level),
    gold: await readGoldCounts(db, query.datasetId, query.metric),
    judge: query.runId ? judgeAmongPeople(patterns, counted.length, level, query.kind, query.epsilon) : null,
  };
}

function judgeAmongPeople(
  patterns: { values: readonly (LabelValue | null)[]; judge: LabelValue | null; count: number }[],
  labellers: number,
  level: AlphaLevel,
  kind: "rating" | "score",
  epsilon?: number,
): JudgeAmongPeople | null {
  const judged = patterns.filter((pattern) => pattern.judge !== null);
  if (judged.length === 0) return null;
  const unitsWith = (coders: (pattern: (typeof judged)[number]) => (LabelValue | null)[]) =>
    judged.map((pattern) => ({
      values: coders(pattern).filter((value): value is LabelValue => value !== null),
      weight: pattern.count,
    }));
  const pairs: JudgeAmongPeople["pairs"] = [];
  for (let i = 0; i < labellers; i++) {
    let rows = 0;
    let same = 0;
    for (const { values, judge, count } of judged) {
      if (values[i] === null) continue;
      rows += count;
      if (values[i] === judge) same += count;
    }
    if (rows === 0) continue;
    pairs.push({
      labeller: i,
      rows,
      agreement: kind === "rating" ? same / rows : null,
      alpha: krippendorffAlpha(
        unitsWith((pattern) => [pattern.values[i], pattern.judge]),
        level,
      ),
    });
  }
  return {
    alphaWithJudge: krippendorffAlpha(
      unitsWith((pattern) => [...pattern.values, pattern.judge]),
      level,
    ),
    pairs,
    altTest: alternativeAnnotatorTest(judged, labellers, {
      scoring: kind === "score" ? "neg_rmse" : "accuracy",
      epsilon,
    }),
  };
}
