import { describe, expect, it } from "vitest";
import { judgeHeuristically } from "@/lib/judges/heuristic";
import { splitSentences } from "@/lib/judges/heuristic/text";
import { CORRECTNESS, RELEVANCE, GROUNDEDNESS, SUFFICIENCY, row } from "../support/judgeInputs";

/**
 * The rules issue 7 asked for, each on a case the previous rules got wrong: short
 * direct answers are relevant, groundedness needs all or almost all of the response
 * supported by the chunks (never by the question), context_sufficiency does not count
 * the question as context, and correctness checks bare answers.
 */

const MILLER =
  'Margaret "Peggy" Seeger (born June 17, 1935) is an American folksinger. She was married to the singer and songwriter Ewan MacColl until his death in 1989. James Henry Miller (25 January 1915 – 22 October 1989), better known by his stage name Ewan MacColl, was an English folk singer.';
const OBEROI =
  "The Oberoi family is an Indian family that is famous for its involvement in hotels, namely through The Oberoi Group. The Oberoi Group is a hotel company with its head office in Delhi.";
const MAGAZINES =
  "Arthur's Magazine (1844–1846) was an American literary periodical published in Philadelphia in the 19th century. First for Women is a woman's magazine published by Bauer Media Group in the USA.";

describe("relevance_to_query accepts a short direct answer", () => {
  it.each([
    ["Who directed the 2001 film Serendipity?", "Peter Chelsom"],
    ["Toronto's Insight Sports is partially owned by what Canadian businessman?", "Lawrence M. Tanenbaum"],
    ["In what year was the creator of the current arrangement of the Simpsons theme born?", "March 28, 1941"],
    ["How many weeks did Bette Davis Eyes spend at No. 1?", "nine"],
    ["Are Pam Veasey and Jon Jost both American?", "yes"],
  ])("%s → %s", (request, response) => {
    const v = judgeHeuristically(RELEVANCE, row(request, { response }));
    expect(v.rating).toBe("yes");
    expect(v.rationale).toContain("direct answer");
  });

  it("still rates a short statement about something else as off-topic", () => {
    const v = judgeHeuristically(
      RELEVANCE,
      row("Guitars for Wounded Warriors was recorded in which New York county?", {
        response: "The Messenger starred Michael Sheen.",
      }),
    );
    expect(v.rating).toBe("no");
  });

  it("wants a number for a how-many question", () => {
    expect(
      judgeHeuristically(
        RELEVANCE,
        row("The Pineground Bridge leads into a town with a population of what?", { response: "Santa Fe, New Mexico" }),
      ).rating,
    ).toBe("no");
    expect(
      judgeHeuristically(
        RELEVANCE,
        row("The Pineground Bridge leads into a town with a population of what?", { response: "2,523" }),
      ).rating,
    ).toBe("yes");
  });
});

describe("groundedness needs all or almost all of the response supported by the chunks", () => {
  it("does not take the question as evidence: a restated question with an unsupported answer is no", () => {
    const v = judgeHeuristically(
      GROUNDEDNESS,
      row("What nationality was James Henry Miller's wife?", {
        response: "James Henry Miller's wife was British.",
        chunks: [MILLER],
      }),
    );
    expect(v.rating).toBe("no");
    expect(v.rationale).toContain("'James Henry Miller's wife was British.'");
    expect(v.rationale).toContain('"British" in no chunk');
  });

  it("checks a bare answer against the chunks", () => {
    const request = "The Oberoi family is part of a hotel company that has a head office in what city?";
    expect(judgeHeuristically(GROUNDEDNESS, row(request, { response: "Mumbai", chunks: [OBEROI] })).rating).toBe("no");
    expect(judgeHeuristically(GROUNDEDNESS, row(request, { response: "Delhi", chunks: [OBEROI] })).rating).toBe("yes");
  });

  it("is no with half of the sentences unsupported, even when none states a number or name", () => {
    const response =
      "The Oberoi Group is a hotel company with its head office in Delhi. Its restaurants are known for slow service and tiny portions.";
    const v = judgeHeuristically(GROUNDEDNESS, row("Tell me about the Oberoi Group.", { response, chunks: [OBEROI] }));
    expect(v.rating).toBe("no");
    expect(v.rationale).toMatch(/^1 of 2 response sentences supported by the retrieved chunks \(50%/);
    expect(v.rationale).toContain(
      'the words it adds to the question, "restaurants", "known", "slow", "service" and 2 more, are in no chunk',
    );
  });

  it("tolerates one unverified sentence in four, not two", () => {
    const supported =
      "The Oberoi family is famous for its involvement in hotels. The Oberoi Group is a hotel company. Its head office is in Delhi.";
    const one = judgeHeuristically(
      GROUNDEDNESS,
      row("Tell me about the Oberoi Group.", {
        response: `${supported} Guests often praise the quiet rooms.`,
        chunks: [OBEROI],
      }),
    );
    expect(one.rating).toBe("yes");
    const two = judgeHeuristically(
      GROUNDEDNESS,
      row("Tell me about the Oberoi Group.", {
        response: `${supported} Guests often praise the quiet rooms. Breakfast tends to be expensive.`,
        chunks: [OBEROI],
      }),
    );
    expect(two.rating).toBe("no");
  });
});

describe("context_sufficiency does not count the question as context", () => {
  it("is no when only the question names the answer", () => {
    const v = judgeHeuristically(
      SUFFICIENCY,
      row("Which magazine was started first, Arthur's Magazine or First for Women?", {
        chunks: [OBEROI],
        expectedResponse: "Arthur's Magazine",
      }),
    );
    expect(v.rating).toBe("no");
    expect(v.rationale).toContain("the user's question not counted as context");
    expect(
      judgeHeuristically(
        SUFFICIENCY,
        row("Which magazine was started first, Arthur's Magazine or First for Women?", {
          chunks: [MAGAZINES],
          expectedResponse: "Arthur's Magazine",
        }),
      ).rating,
    ).toBe("yes");
  });

  it("does not look in the chunks for a number the user stated", () => {
    const v = judgeHeuristically(
      SUFFICIENCY,
      row("How do I delete everything under logs/ after 30 days?", {
        chunks: [
          "The Expiration action deletes current object versions once they reach a given age, set with Days. A rule's Filter selects objects by prefix.",
        ],
        expectedResponse: "Add a rule with Filter prefix logs/ and an Expiration action with Days set to 30.",
      }),
    );
    expect(v.rating).toBe("yes");
  });
});

describe("correctness checks bare answers", () => {
  it("a bare expected name, number or date is a claim, not nothing to check", () => {
    const request = "The Oberoi family is part of a hotel company that has a head office in what city?";
    expect(
      judgeHeuristically(
        CORRECTNESS,
        row(request, { response: "The Oberoi family's hotel company is based in Mumbai.", expectedResponse: "Delhi" }),
      ).rating,
    ).toBe("no");
    expect(
      judgeHeuristically(
        CORRECTNESS,
        row(request, { response: "Its head office is in Delhi.", expectedResponse: "Delhi" }),
      ).rating,
    ).toBe("yes");
  });

  it("a short name must match in full", () => {
    const v = judgeHeuristically(
      CORRECTNESS,
      row("Which city is the band from?", {
        response: "Santa Fe, New Mexico",
        expectedResponse: "Albuquerque, New Mexico",
      }),
    );
    expect(v.rating).toBe("no");
  });

  it("a bare yes/no reference needs the same opening word", () => {
    const request = "Are Gin and tonic and Paloma both cocktails based on tequila?";
    expect(
      judgeHeuristically(
        CORRECTNESS,
        row(request, { response: "Yes, both are tequila-based cocktails.", expectedResponse: "no" }),
      ).rating,
    ).toBe("no");
    expect(
      judgeHeuristically(CORRECTNESS, row(request, { response: "Both are cocktails.", expectedResponse: "no" })).rating,
    ).toBe("no");
    expect(
      judgeHeuristically(
        CORRECTNESS,
        row(request, { response: "No. A gin and tonic is made with gin.", expectedResponse: "no" }),
      ).rating,
    ).toBe("yes");
  });

  it("denying the expected answer is a contradiction", () => {
    const v = judgeHeuristically(
      CORRECTNESS,
      row("What U.S. Highway gives access to Zilpo Road?", {
        response: "It's actually Zilpo Road that is known as Midland Trail, not US 60.",
        expectedResponse: "US 60",
      }),
    );
    expect(v.rating).toBe("no");
    expect(v.rationale).toContain("denies the expected answer");
  });

  it("an acronym answer must appear as written", () => {
    const request = "What video game published by Sierra Entertainment has Alma Wade as its antagonist?";
    expect(
      judgeHeuristically(
        CORRECTNESS,
        row(request, {
          response: "The Bass Rock Lighthouse was next to Edinburgh Castle.",
          expectedResponse: "F.E.A.R.",
        }),
      ).rating,
    ).toBe("no");
    expect(
      judgeHeuristically(
        CORRECTNESS,
        row(request, { response: "Alma Wade is the antagonist of F.E.A.R.", expectedResponse: "F.E.A.R." }),
      ).rating,
    ).toBe("yes");
  });
});

describe("sentence splitting", () => {
  it("does not end a sentence at an initial", () => {
    expect(splitSentences("Lawrence M. Tanenbaum").units).toEqual(["Lawrence M. Tanenbaum"]);
    expect(splitSentences("Teri W. Odom is a chemist. She edits ACS Nano.").units).toEqual([
      "Teri W. Odom is a chemist.",
      "She edits ACS Nano.",
    ]);
  });
});
