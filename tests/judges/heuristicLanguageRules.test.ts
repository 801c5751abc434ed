import { describe, expect, it } from "vitest";
import { heuristicCorrectness, heuristicGroundedness } from "@/lib/judges/heuristic";
import { negates, polarity, swappedRelation } from "@/lib/judges/heuristic/polarity";
import { row } from "../support/judgeInputs";

// The offline judge's rules about language: negation, first-person sentences, and a claim that keeps a
// passage's words but changes its number, name or relation. Minimal pairs written for these tests; no
// dataset's rows.

const correct = (response: string, expectedResponse: string) =>
  heuristicCorrectness(row("q", { response, expectedResponse })).rating;
const grounded = (response: string, passages: string[], question = "Tell me about it.") =>
  heuristicGroundedness(row(question, { response, chunks: passages }));

describe("negation", () => {
  it("counts negations and what they reach; phrases that negate nothing do not count", () => {
    expect(polarity("Canberra is not the capital.").negations).toBe(1);
    expect(polarity("It isn't open and never was.").negations).toBe(2);
    expect(polarity("Sin la opción, la URL caduca.").negations).toBe(1);
    expect(polarity("Not only fast but cheap.").negations).toBe(0);
    expect(polarity("Refunds take no more than 5 days.").negations).toBe(0);
    expect(polarity("No, it opens at nine.").negations).toBe(0); // the answer word is compared elsewhere
    expect(negates("Canberra is not the capital.", "Canberra is the capital.")).toBe(true);
    expect(negates("No one, not even the owner, can delete it.", "Nobody can delete it.")).toBe(false);
    expect(negates("The shop does not sell bread.", "The shop sells milk.")).toBe(true);
    expect(negates("Nobody answered.", "The museum is open.")).toBe(false); // nothing shared in reach
  });

  it("makes an answer that negates the expected one incorrect, where the words all overlap", () => {
    expect(correct("Canberra is not the capital of Australia.", "Canberra is the capital of Australia.")).toBe("no");
    expect(
      correct("The plan does not include single sign-on for teams.", "The plan includes single sign-on for teams."),
    ).toBe("no");
    expect(correct("Canberra is the capital city of Australia.", "The capital of Australia is Canberra.")).toBe("yes");
    expect(correct("It covers not only parts but also labour.", "It covers parts and labour.")).toBe("yes");
  });

  it("makes a sentence that negates its passage ungrounded, and says so", () => {
    const passages = ["The library is open on weekdays from 9 to 5."];
    const negated = grounded("The library is not open on weekdays.", passages);
    expect(negated.rating).toBe("no");
    expect(negated.rationale).toMatch(/disagree: one negates what the other states/);
    expect(grounded("The library is open on weekdays.", passages).rating).toBe("yes");
    // A short claim that negates part of a long sentence; a negation's reach ends at a comma.
    const long = ["The Eiffel Tower, finished in 1889 for the World's Fair, is a wrought-iron lattice tower in Paris."];
    expect(grounded("The Eiffel Tower is not in Paris.", long).rating).toBe("no");
    expect(grounded("The Eiffel Tower is in Paris.", long).rating).toBe("yes");
    const comma = ["To rotate a key without downtime, create a second key and deploy it."];
    expect(grounded("Create a second key and deploy it.", comma).rating).toBe("yes");
  });
});

describe("first-person sentences", () => {
  const passages = ["The library is open on weekdays from 9 to 5. Its reading room has 200 seats."];

  it("checks what an opinion frame frames", () => {
    expect(grounded("I think the library is open on weekdays.", passages).rating).toBe("yes");
    expect(grounded("I believe the library is not open on weekdays.", passages).rating).toBe("no");
  });

  it("does not ground a reply made of personal statements: they are checked, and nothing supports them", () => {
    const personal = grounded("I use the library every morning. I love its quiet garden cafe.", passages);
    expect(personal.rating).toBe("no");
  });

  it("leaves out remarks about the assistant's own search or help", () => {
    expect(grounded("I couldn't find the opening hours for holidays in the documents.", passages).rating).toBe("yes");
    expect(grounded("The library is open on weekdays. I'd suggest calling ahead.", passages).rating).toBe("yes");
    // A remark that states a number is checked like any claim.
    expect(grounded("I couldn't find it, but I checked: the reading room has 300 seats.", passages).rating).toBe("no");
  });
});

describe("a claim that keeps the passage's words but changes them", () => {
  it("changed number: the year of another event in the same text does not vouch for it", () => {
    const passages = ["The bridge was completed in 1932. It was widened in 1950 to carry more traffic."];
    const changed = grounded("The bridge was completed in 1950.", passages);
    expect(changed.rating).toBe("no");
    expect(changed.rationale).toMatch(
      /states 1950 where the passage: 'The bridge was completed in 1932\.' states 1932/,
    );
    expect(grounded("The bridge was completed in 1932.", passages).rating).toBe("yes");
  });

  it("changed number: spelled-out numbers and ordinals too", () => {
    const passages = ["The singer won six awards. The show ended after its third season in 2004."];
    expect(grounded("The singer won seven awards.", passages).rating).toBe("no");
    expect(grounded("The show ended after its fourth season.", passages).rating).toBe("no");
    expect(grounded("The show ended after its third season.", passages).rating).toBe("yes");
  });

  it("changed name: another name where the passage names someone else", () => {
    const passages = ["The treaty was signed by France and Portugal in 1659 on an island in the river."];
    expect(grounded("The treaty was signed by France and Spain in 1659.", passages).rating).toBe("no");
    expect(
      correct(
        "The treaty was signed by France and Spain in 1659.",
        "The treaty was signed by France and Portugal in 1659.",
      ),
    ).toBe("no");
  });

  it("changed relation: the opposite word where the words around it stay", () => {
    expect(swappedRelation("Sales fell after the merger.", "Sales rose after the merger.")).toEqual({
      said: "fell",
      instead: "rose",
    });
    expect(grounded("The museum was built before the war.", ["The museum was built after the war ended."]).rating).toBe(
      "no",
    );
    expect(correct("The museum was built before the war.", "The museum was built after the war.")).toBe("no");
    expect(grounded("Sales rose after the merger.", ["Sales rose after the merger was announced."]).rating).toBe("yes");
  });
});
