// Cheaper step matching, with the same results. Cucumber matches every step text of a run against the step
// definitions, in the kit and again in each worker, and cucumber-expressions takes each argument's position from
// the package regexp-match-indices: its check for native indices tries a regexp without the `d` flag, so it always
// falls back to rebuilding the step's regexp with regexp-tree for every match (tens of ms of CPU per process).
// Where the engine's own indices (the `d` flag) are the same, they are used. They differ for a capturing group that
// is repeated or inside a repetition ({string} has one): the package gives the start of the first repetition, the
// engine that of the last, and the positions reach messages.ndjson. Those regexps keep the package's path, and
// each step text's match is kept, since the same texts are matched again and again.
import { createRequire } from "node:module";

interface GroupBuilder { build(match: RegExpExecArray, nextGroupIndex: () => number): unknown }
interface TreeRegexp { readonly regexp: RegExp; readonly groupBuilder: GroupBuilder; match(text: string): unknown }
interface CucumberExpressions {
  CucumberExpression: new (expression: string, registry: unknown) => { treeRegexp: TreeRegexp };
  ParameterTypeRegistry: new () => unknown;
}

type Matcher = (tree: TreeRegexp, text: string) => unknown;

/** How each regexp is matched, chosen at its first match. */
const matchers = new WeakMap<RegExp, Matcher>();

function matcherFor(regexp: RegExp, original: TreeRegexp["match"]): Matcher {
  if (!regexp.global && !regexp.sticky && nativeIndicesAgree(regexp.source)) {
    const indexed = regexp.hasIndices ? regexp : new RegExp(regexp.source, `${regexp.flags}d`);
    return (tree, text) => {
      const found = indexed.exec(text);
      if (!found) return null;
      let groupIndex = 0;
      return tree.groupBuilder.build(found, () => groupIndex++);
    };
  }
  // The groups are read, never changed, by cucumber: one group tree per text serves every match of it.
  const found = new Map<string, unknown>();
  return (tree, text) => {
    if (found.has(text)) return found.get(text);
    const group = original.call(tree, text);
    if (group !== null) found.set(text, group);
    return group;
  };
}

/**
 * Whether no capturing group of the regexp is repeated or inside a repetition or a lookaround: then the engine's
 * indices are those regexp-match-indices computes. Unsure (a quantifier-like `{` after a group) counts as no.
 */
export function nativeIndicesAgree(source: string): boolean {
  const open: Array<{ holdsCapture: boolean }> = [];
  let escaping = false;
  let charClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (escaping) {
      escaping = false;
    } else if (c === "\\") {
      escaping = true;
    } else if (charClass) {
      charClass = c !== "]";
    } else if (c === "[") {
      charClass = true;
    } else if (c === "(") {
      if (/^\(\?<?[=!]/.test(source.slice(i, i + 4))) return false;
      open.push({ holdsCapture: source[i + 1] !== "?" || /^\(\?<[^=!]/.test(source.slice(i, i + 4)) });
    } else if (c === ")") {
      const group = open.pop();
      if (!group) return false;
      if (group.holdsCapture && /[*+?{]/.test(source[i + 1] ?? "")) return false;
      const outer = open.at(-1);
      if (outer && group.holdsCapture) outer.holdsCapture = true;
    }
  }
  return open.length === 0;
}

/**
 * Replaces TreeRegexp.match in the copy of cucumber-expressions that @cucumber/cucumber uses, when it has the shape
 * this module knows (that of the pinned cucumber version); else matching stays as it was.
 */
function useCheaperMatching(): void {
  const fromCucumber = createRequire(createRequire(import.meta.url).resolve("@cucumber/cucumber"));
  const { CucumberExpression, ParameterTypeRegistry } = fromCucumber("@cucumber/cucumber-expressions") as CucumberExpressions;
  const sample = new CucumberExpression("a {int}", new ParameterTypeRegistry()).treeRegexp;
  const prototype = Object.getPrototypeOf(sample) as TreeRegexp;
  if (typeof prototype.match !== "function" || !(sample.regexp instanceof RegExp) || typeof sample.groupBuilder?.build !== "function") return;
  const original = prototype.match;
  prototype.match = function match(this: TreeRegexp, text: string): unknown {
    let matcher = matchers.get(this.regexp);
    if (!matcher) {
      matcher = matcherFor(this.regexp, original);
      matchers.set(this.regexp, matcher);
    }
    return matcher(this, text);
  };
}

useCheaperMatching();
