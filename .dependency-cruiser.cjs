// The layers of the app as dependency-cruiser checks them (`npm run lint`, after ESLint). It resolves every import
// the way TypeScript does (the `@/` alias from tsconfig.json, relative paths, index files), type-only imports and
// dynamic `import()` included, so a circle or a layer crossed through either fails too.
// tests/lint/dependencyRules.test.ts shows each rule failing on a small tree of its own.
const PACKAGES = ["^node_modules/"];
/** Node's own modules (`node:crypto`, `fs`): allowed wherever packages are. */
const CORE = ["core"];

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment:
        "An import circle ties its modules into one layer, and the next value import along it fails at start-up in " +
        "whichever order they load: put what both sides share in a module below them (lib/contract for the store).",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "db-imports-only-contract",
      comment:
        "lib/db is the bottom layer: it imports only lib/contract, lib/stats, itself and packages. A type, schema or " +
        "value it shares with the layers above goes down into lib/contract; code that needs those layers moves up.",
      severity: "error",
      from: { path: "^lib/db/" },
      to: { pathNot: ["^lib/(db|contract|stats)/", ...PACKAGES], dependencyTypesNot: CORE },
    },
    {
      name: "contract-imports-nothing-of-lib",
      comment:
        "lib/contract is what the layers agree on (names, shapes, stored formats): it imports only itself and " +
        "packages, so every layer, the store included, can import it.",
      severity: "error",
      from: { path: "^lib/contract/" },
      to: { pathNot: ["^lib/contract/", ...PACKAGES], dependencyTypesNot: CORE },
    },
    {
      name: "llm-no-judges",
      comment: "lib/llm is the LLM client and does not import lib/judges (judges build on lib/llm).",
      severity: "error",
      from: { path: "^lib/llm/" },
      to: { path: "^lib/judges/" },
    },
    {
      name: "lib-no-app",
      comment: "lib/ imports nothing from app/ or components/: they depend on lib/, never the other way.",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^(app|components)/" },
    },
  ],
  options: {
    doNotFollow: { path: PACKAGES },
    // Prisma's generated clients: large, generated, and below every rule (only lib/db imports them).
    exclude: { path: ["^lib/db/generated/", "^\\.next/"] },
    tsConfig: { fileName: "tsconfig.json" },
    // Type-only imports count: a circle of types still ties two layers into one.
    tsPreCompilationDeps: true,
    skipAnalysisNotInRules: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
