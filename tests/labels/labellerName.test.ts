import { describe, expect, it } from "vitest";
import { labellerName, REMOVED_USER } from "@/lib/labels/labellerName";

describe("the labeller the row page names", () => {
  const names = new Map([["user-1", "Ada"]]);

  it("names an account's person, the local admin, or unknown", () => {
    expect(labellerName({ labelledBy: "user-1", source: "ui", statedBy: null }, names)).toBe("Ada");
    expect(labellerName({ labelledBy: "local", source: "ui", statedBy: null }, names)).toBe("Local admin");
    expect(labellerName({ labelledBy: null, source: "upload", statedBy: null }, names)).toBe("unknown");
  });

  it("says 'a removed user' for a label whose account is gone, never its raw id", () => {
    expect(labellerName({ labelledBy: "gone-user-id", source: "ui", statedBy: null }, names)).toBe(REMOVED_USER);
    expect(labellerName({ labelledBy: "gone-user-id", source: "import", statedBy: "bob" }, names)).toBe(REMOVED_USER);
  });

  it("shows a label file's own labelled_by, imported with sign-in off, as the file gave it", () => {
    expect(labellerName({ labelledBy: "mallory@example.com", source: "import", statedBy: null }, names)).toBe(
      "mallory@example.com",
    );
  });
});
