// Better Auth's start-up warning names its own variable (BETTER_AUTH_URL); Assay's is ASSAY_BASE_URL.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAuth } from "@/lib/auth/createAuth";
import { createTempDb } from "../support/tempDb";
import { TEST_SECRET } from "./authKit";

let temp: Awaited<ReturnType<typeof createTempDb>>;
beforeAll(async () => {
  temp = await createTempDb();
});
afterAll(async () => temp?.cleanup());

describe("sign-in without ASSAY_BASE_URL", () => {
  it("warns in Assay's words, naming ASSAY_BASE_URL and never BETTER_AUTH_URL", async () => {
    const warned: string[] = [];
    const spy = vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => {
      warned.push(args.map(String).join(" "));
    });
    try {
      const auth = createAuth({ db: temp.db, secret: TEST_SECRET });
      await auth.$context;
    } finally {
      spy.mockRestore();
    }
    const said = warned.join("\n");
    expect(said).toContain("ASSAY_BASE_URL is not set");
    expect(said).not.toContain("BETTER_AUTH_URL");
  });
});
