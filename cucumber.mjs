// Cucumber profiles of the conformance suite. The first import registers tsx so the steps load as TypeScript.
const common = {
  import: ["step-definitions/support/register-tsx.mjs", "step-definitions/**/*.ts"],
  worldParameters: { toleranceMs: 500 },
  format: ["summary"],
};

export default common;
export const documented = { ...common, tags: "@doc" };
export const compatibility = { ...common, tags: "@doc or @legacy-doc" };
export const reference = { ...common };
