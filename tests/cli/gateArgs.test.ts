// The gate's options on the command line: its level and how the metrics compared are read together.
import { describe, expect, it } from "vitest";
import { parseEvalArgs } from "@/lib/cli/evalArgs";
import { baseArgs, usageError } from "../support/evalArgsKit";

const gate = ["--server", "https://assay.example.com", "--baseline", "latest:branch=main"];

describe("the regression gate's options", () => {
  it("reads the metrics together with Holm's correction unless told otherwise", () => {
    expect(parseEvalArgs([...baseArgs, ...gate]).gate).toEqual({
      baseline: { latestTag: "branch=main" },
      alpha: 0.05,
      correction: "holm",
      summaryMd: undefined,
    });
    expect(parseEvalArgs([...baseArgs, ...gate, "--correction", "bh", "--alpha", "0.1"]).gate).toMatchObject({
      alpha: 0.1,
      correction: "bh",
    });
    expect(parseEvalArgs([...baseArgs, ...gate, "--correction", "none"]).gate?.correction).toBe("none");
  });

  it("refuses an unknown correction, naming the ones there are, and a correction without a gate", () => {
    expect(usageError([...baseArgs, ...gate, "--correction", "bonferroni"])).toBe(
      '--correction must be one of holm, bh, none, got "bonferroni"',
    );
    expect(usageError([...baseArgs, "--correction", "bh"])).toBe(
      "--alpha, --correction, --summary-md and --pairwise belong to the regression gate: give --baseline too",
    );
  });
});

describe("--pairwise", () => {
  it("alone judges the built-in criterion in both orders; custom criteria are NAME=INSTRUCTIONS", () => {
    expect(parseEvalArgs([...baseArgs, ...gate, "--pairwise"]).gate?.pairwise).toEqual({
      criteria: [{ name: "overall" }],
      orders: "both",
    });
    expect(parseEvalArgs([...baseArgs, "--pairwise", ...gate]).gate?.pairwise?.criteria).toEqual([{ name: "overall" }]);
    expect(
      parseEvalArgs([
        ...baseArgs,
        ...gate,
        "--pairwise",
        "overall",
        "--pairwise",
        "concise=Prefer the shorter complete answer.",
        "--pairwise-orders",
        "one",
      ]).gate?.pairwise,
    ).toEqual({
      criteria: [{ name: "overall" }, { name: "concise", instructions: "Prefer the shorter complete answer." }],
      orders: "one",
    });
  });

  it("refuses a bare name other than overall, a bad name, a repeat, a bad order, and no gate", () => {
    expect(usageError([...baseArgs, ...gate, "--pairwise", "concise"])).toBe(
      '--pairwise concise: give "overall" for the built-in criterion, or NAME=INSTRUCTIONS for a custom one',
    );
    expect(usageError([...baseArgs, ...gate, "--pairwise", "Bad Name=x"])).toMatch(
      /^--pairwise Bad Name=x: a criterion's name/,
    );
    expect(usageError([...baseArgs, ...gate, "--pairwise", "--pairwise", "overall"])).toBe(
      '--pairwise: the criterion "overall" is given twice',
    );
    expect(usageError([...baseArgs, ...gate, "--pairwise", "--pairwise-orders", "three"])).toBe(
      "--pairwise-orders must be both or one",
    );
    expect(usageError([...baseArgs, "--pairwise"])).toBe(
      "--alpha, --correction, --summary-md and --pairwise belong to the regression gate: give --baseline too",
    );
  });
});

describe("--trials", () => {
  it("judges each row once unless told, and N times with --trials N", () => {
    expect(parseEvalArgs(baseArgs).trials).toBe(1);
    expect(parseEvalArgs([...baseArgs, "--trials", "3"]).trials).toBe(3);
    expect(parseEvalArgs([...baseArgs, "--trials", "10"]).trials).toBe(10);
  });

  it("refuses a count outside 1–10 or not a whole number, naming what is allowed", () => {
    for (const value of ["0", "11", "2.5", "three", "-1", ""])
      expect(usageError([...baseArgs, `--trials=${value}`])).toBe("--trials must be a whole number from 1 to 10");
  });
});

describe("--dataset-name", () => {
  it("names the uploaded dataset, and belongs with --dataset", () => {
    expect(parseEvalArgs(baseArgs).datasetName).toBeUndefined();
    expect(parseEvalArgs([...baseArgs, "--dataset-name", " ci main 1a2b3c "]).datasetName).toBe("ci main 1a2b3c");
    expect(usageError([...baseArgs, "--dataset-name="])).toBe("--dataset-name must be 1 to 200 characters");
    expect(usageError(["--dataset-id", "d1", "--dataset-name", "x"])).toBe(
      "--dataset-name names the file --dataset uploads: give --dataset too",
    );
  });
});
