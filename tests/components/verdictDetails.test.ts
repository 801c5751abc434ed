import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { VerdictDetails } from "@/components/runs/row/VerdictDetails";
import type { VerdictDetails as Details } from "@/lib/contract/judgeResult";

const htmlOf = (details: Details, metric: string) =>
  renderToStaticMarkup(createElement(VerdictDetails, { details, metric }));

describe("VerdictDetails (the drill-down of a score)", () => {
  it("lists each context piece with its level and whether it was used, the missing information and the figures", () => {
    const html = htmlOf(
      {
        groups: [
          {
            title: "Context pieces",
            items: [
              {
                text: "Paris is the capital.",
                verdict: "high",
                reason: "answers it",
                tags: ["context 1", "used in the response"],
              },
              { text: "Lyon has silk.", verdict: "none", tags: ["context 2", "not used"] },
            ],
          },
          { title: "Missing information", items: [{ text: "the population", verdict: "missing" }] },
        ],
        figures: { base: 0.5, usage_penalty: 0, missing_penalty: 0.15, weighted_score: null },
      },
      "retrieval/llm_judged/context_relevance",
    );
    expect(html).toContain("Context pieces");
    expect(html).toContain('data-verdict="high"');
    expect(html).toContain("used in the response");
    expect(html).toContain("not used");
    expect(html).toContain("Missing information");
    expect(html).toContain("the population");
    expect(html).toMatch(/missing penalty<\/dt><dd[^>]*>0\.15<\/dd>/);
    expect(html).toMatch(/probability-weighted score<\/dt><dd[^>]*>—<\/dd>/);
  });

  it("prints counts as counts and scores with two decimals, and leaves G-Eval's steps uncoloured", () => {
    const html = htmlOf(
      {
        groups: [{ title: "Evaluation steps", items: [{ text: "Read the actual output.", verdict: "step 1" }] }],
        figures: { claims: 3, yes: 2, raw_score: 3, weighted_score: 3.42, brevity_penalty: 1 },
      },
      "response/llm_judged/g_eval/coherence",
    );
    expect(html).toMatch(/claims<\/dt><dd[^>]*>3<\/dd>/);
    expect(html).toMatch(/raw score<\/dt><dd[^>]*>3\.00<\/dd>/);
    expect(html).toMatch(/brevity penalty<\/dt><dd[^>]*>1\.00<\/dd>/);
    expect(html).toMatch(/weighted score<\/dt><dd[^>]*>3\.42<\/dd>/);
    expect(html).toMatch(/bg-slate-50[^>]*>step 1/);
  });

  it("renders uploaded text inert: markup arrives as text", () => {
    const html = htmlOf(
      {
        groups: [
          { title: "Claims", items: [{ text: "<img src=x onerror=alert(1)>", verdict: "no", reason: "<b>x</b>" }] },
        ],
      },
      "response/llm_judged/faithfulness",
    );
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });

  it("says what a toxicity verdict means: yes is a toxic opinion", () => {
    const html = htmlOf(
      {
        groups: [
          {
            title: "Opinions",
            items: [
              { text: "They are idiots.", verdict: "yes" },
              { text: "Fine.", verdict: "no" },
            ],
          },
        ],
      },
      "response/llm_judged/toxicity",
    );
    expect(html).toContain("yes: toxic");
    expect(html).toContain("no: not toxic");
    expect(html).toMatch(/bg-rose-50[^>]*>yes: toxic/);
  });

  it("shows nothing when there is nothing to show", () => {
    expect(htmlOf({ groups: [{ title: "Claims", items: [] }] }, "response/llm_judged/faithfulness")).toBe("");
  });
});
