import { describe, expect, it } from "vitest";
import { labellerName, REMOVED_USER } from "@/lib/labels/labellerName";

describe("the labeller the row page names", () => {
  const names = new Map([["user-1", "Ada"]]);

  it("names an account's person, the local admin, or unknown", () => {
    expect(labellerName({ labelledBy: "user-1", source: "ui" }, names)).toBe("Ada");
    expect(labellerName({ labelledBy: "local", source: "ui" }, names)).toBe("Local admin");
    expect(labellerName({ labelledBy: null, source: "upload" }, names)).toBe("unknown");
  });

  it("says 'a removed user' for a label whose account is gone, never its raw id", () => {
    expect(labellerName({ labelledBy: "gone-user-id", source: "ui" }, names)).toBe(REMOVED_USER);
  });

  it("shows an imported label's labeller as stored: the importer's email, or the file's labelled_by with sign-in off", () => {
    expect(labellerName({ labelledBy: "runner@example.com", source: "import" }, names)).toBe("runner@example.com");
    expect(labellerName({ labelledBy: "mallory@example.com", source: "import" }, names)).toBe("mallory@example.com");
  });
});
