import { describe, expect, it } from "vitest";
import { formatPeopleAgreementTable } from "@/lib/labels/peopleAgreementTable";
import { alternativeAnnotatorTest, krippendorffAlpha, peopleAgreement, type JudgedPattern } from "@/lib/stats";

describe("the CLI's table of agreement between people", () => {
  it("prints α with its interval, Fleiss' κ, the ties, the judge's α and the alternative annotator test's answer", () => {
    const patterns: JudgedPattern[] = [
      { values: ["yes", "yes", "yes"], judge: "yes", count: 30 },
      { values: ["no", "no", "no"], judge: "no", count: 20 },
      { values: ["yes", "no", "yes"], judge: "yes", count: 6 },
    ];
    const agreement = peopleAgreement(patterns, 3, "nominal");
    const table = formatPeopleAgreementTable([
      {
        metric: "response/llm_judged/groundedness",
        labellers: ["ann", "bob", "cy"],
        agreement,
        gold: { tied: 0, disagreed: 6 },
        judge: {
          alphaWithJudge: krippendorffAlpha(
            patterns.map((p) => ({ values: [...(p.values as string[]), p.judge as string], weight: p.count })),
            "nominal",
          ),
          altTest: alternativeAnnotatorTest(patterns, 3, { scoring: "accuracy" }),
        },
      },
    ]);
    const [header, line, note] = table.split("\n");
    expect(header).toMatch(/^metric\s+labellers\s+rows \(2\+\)\s+α \[95 % CI\]\s+Fleiss' κ/);
    expect(line).toContain("response/llm_judged/groundedness");
    expect(line).toMatch(/\b3\s+56\s+0\.\d{3} nominal \[0\.\d\d, 0\.\d\d\]/);
    expect(line).toMatch(/Yes: the judge represents the others at least as well as 3 of 3 labellers/);
    expect(note).toContain("alternative annotator test");
    expect(formatPeopleAgreementTable([])).toBe("");
  });
});
