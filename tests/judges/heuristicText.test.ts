import { describe, expect, it } from "vitest";
import {
  contentWords,
  extractLiterals,
  extractQuantities,
  nameTerms,
  overlap,
  quantityFound,
  splitSentences,
  stem,
  tokenize,
} from "@/lib/judges/heuristic/text";

describe("tokenize and content words", () => {
  it("lower-cases, keeps Unicode letters and digits, drops punctuation and HTML tags", () => {
    expect(tokenize("<p>Größe: 5 GiB, don't!</p>")).toEqual(["größe", "5", "gib", "dont"]);
  });

  it("drops English, Spanish and German stopwords and bare numbers", () => {
    expect([...contentWords("The bucket is in the region")]).toEqual(["bucket", "region"]);
    expect([...contentWords("¿Cómo genero con nwcli una URL prefirmada que caduque en 15 minutos?")]).toEqual([
      "genero",
      "nwcli",
      "url",
      "prefirmada",
      "caduqu",
      "minuto",
    ]);
    expect([...contentWords("Und wie aktiviere ich die Versionierung mit nwcli?")]).toEqual([
      "aktivier",
      "versionierung",
      "nwcli",
    ]);
  });

  it("stems plurals and -ing/-ed/-ation consistently on both sides", () => {
    expect(stem("rules")).toBe(stem("rule"));
    expect(stem("naming")).toBe(stem("names"));
    expect(stem("created")).toBe(stem("creation"));
    expect(stem("policies")).toBe("policy");
    expect(stem("classes")).toBe("class");
    expect(stem("status")).toBe("status");
  });

  it("overlap is the share of A's words found in B, listing what is missing", () => {
    const ov = overlap(contentWords("rules run daily at midnight"), contentWords("Lifecycle rules run once per day"));
    expect(ov.found.sort()).toEqual([stem("rules"), "run"].sort());
    expect(ov.missing).toContain(stem("daily"));
    expect(ov.share).toBeCloseTo(2 / 4);
  });
});

describe("quantities", () => {
  it("reads numbers with units, currency, percent and thousands separators", () => {
    const q = extractQuantities("expires after 7 days (604,800 seconds); $0.06/GB, 5 TB, 99.9%");
    expect(q.map((x) => [x.value, x.dimension])).toEqual([
      [7, "time"],
      [604800, "time"],
      [0.06, "currency"],
      [5, "data"],
      [99.9, "percent"],
    ]);
  });

  it("ignores digits inside identifiers, and reads ranges", () => {
    expect(extractQuantities("use eu-central-1 with HMAC-SHA256 for 2xx responses")).toEqual([]);
    expect(extractQuantities("3–63 characters, 3-5 hours").map((q) => q.value)).toEqual([3, 63, 3, 5]);
  });

  it("matches by value within a unit dimension: 7 days is not 30 days, 1 hour is 3600 seconds", () => {
    const [sevenDays] = extractQuantities("7 days");
    expect(quantityFound(sevenDays, extractQuantities("valid for 30 days"))).toBe(false);
    expect(quantityFound(sevenDays, extractQuantities("valid for 7 hours"))).toBe(false);
    expect(quantityFound(sevenDays, extractQuantities("valid for 604,800 seconds"))).toBe(true);
    const [hour] = extractQuantities("1 hour");
    expect(quantityFound(hour, extractQuantities("3600 seconds"))).toBe(true);
    // A unit on one side only: the bare value decides.
    expect(quantityFound(extractQuantities("$0.023")[0], extractQuantities("0.023 per GB"))).toBe(true);
  });

  it("reads spelled-out numbers only when asked (for the text searched in)", () => {
    expect(extractQuantities("seven days")).toEqual([]);
    expect(extractQuantities("seven days", true)[0]).toMatchObject({ value: 7, dimension: "time" });
  });
});

describe("literals and names", () => {
  it("treats identifiers with a letter then a digit as literals, not quantities", () => {
    expect(extractLiterals("Use eu-central-1 with AES-256; 5GiB and 30d are quantities")).toEqual([
      "eu-central-1",
      "aes-256",
    ]);
  });

  it("collects capitalised terms after the first word and one-word inline code", () => {
    expect(nameTerms("Click **Run now** on the `Lifecycle` tab, then Northwind emails you.")).toEqual(
      expect.arrayContaining(["Lifecycle", "Run", "Northwind"]),
    );
    expect(nameTerms("I'd suggest contacting support.")).toEqual([]);
  });
});

describe("splitSentences", () => {
  it("splits prose, list items and table rows; leaves fenced code out and counts it", () => {
    const text = [
      "Intro, e.g. this one. Next sentence!",
      "",
      "```json",
      '{ "Days": 30 }. More code.',
      "```",
      "",
      "- first item here",
      "1. numbered item",
      "| Class | Price |",
      "|---|---|",
      "| A | $4.50 |",
      "## Heading",
    ].join("\n");
    expect(splitSentences(text)).toEqual({
      units: [
        "Intro, e.g. this one.",
        "Next sentence!",
        "first item here",
        "numbered item",
        "Class; Price",
        "A; $4.50",
        "Heading",
      ],
      codeBlocks: 1,
    });
  });

  it("treats an unterminated fence as code to the end", () => {
    expect(splitSentences("Run this:\n```\nrm -rf tmp. echo done.")).toEqual({ units: ["Run this:"], codeBlocks: 1 });
  });
});
