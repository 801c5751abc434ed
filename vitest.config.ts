import path from "node:path";
import { defineConfig } from "vitest/config";

// Two projects: `unit` (everything but the browser) and `e2e` (the built app in
// Chromium). `npm test` runs both; `npm run test:unit` / `npm run test:e2e` one.
// The e2e globalSetup (Chromium unpack, one `next build`) runs only when e2e
// files are queued.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 240_000,
    pool: "forks",
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["tests/**/*.test.ts"], exclude: ["tests/e2e/**"] },
      },
      {
        extends: true,
        test: { name: "e2e", include: ["tests/e2e/**/*.test.ts"], globalSetup: ["tests/e2e/globalSetup.ts"] },
      },
    ],
  },
});
