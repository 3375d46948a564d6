// Lint (issue 24): typescript-eslint's type-aware rules where they catch real faults here: floating promises,
// non-exhaustive switches over unions, unused values. `npm test` fails on any finding.
import tseslint from "typescript-eslint";

export default tseslint.config(
  // Besides the build's outputs: the folders tests make in the repository while the lint may run (.gitignore).
  {
    ignores: ["dist/", "packages/", "node_modules/", "reports/", "conformance/upstream/vendor/", "**/*.mjs", "**/*.d.mts",
      ".scratch/", ".kit-adapter-example-*/", "out/", "packs/"],
  },
  {
    files: ["**/*.ts"],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ["vitest.config.ts"] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/no-unused-expressions": "error",
    },
  },
);
