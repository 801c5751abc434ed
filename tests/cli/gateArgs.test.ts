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
      "--alpha, --correction and --summary-md belong to the regression gate: give --baseline too",
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
