// The READMEs as npm shows them (issue 25): a relative link works only when it names a file of the same package,
// so every other link is absolute, to the repository that the root package.json names.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, normalize } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { PACKAGE_FOLDERS } from "../../scripts/pack-all.mjs";

const ROOT = new URL("../..", import.meta.url).pathname;
/** Two npm pack --dry-run runs. */
const PACK_TIMEOUT_MS = 120_000;

interface Manifest {
  name: string;
  repository?: { type?: string; url?: string; directory?: string };
  homepage?: string;
  bugs?: { url?: string };
  keywords?: string[];
  engines?: { node?: string };
}

const manifestOf = (folder: string): Manifest => JSON.parse(readFileSync(join(ROOT, folder, "package.json"), "utf8")) as Manifest;
/** The repository's web address, from the root package.json: the one place it is written. */
const REPOSITORY = manifestOf(".").repository!.url!.replace(/^git\+/, "").replace(/\.git$/, "");

/** The targets of the Markdown links of a text, code blocks and code spans left out. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "code");
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!);
}

const isRelative = (target: string): boolean => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith("#");

/** The files `npm pack` would put in the package of `folder`. */
function packedFiles(folder: string): string[] {
  const result = spawnSync("npm", ["pack", "--dry-run", "--ignore-scripts", "--json"], { cwd: join(ROOT, folder), encoding: "utf8" });
  if (result.status !== 0) throw new Error(`npm pack --dry-run in ${folder} failed:\n${result.stderr}`);
  return (JSON.parse(result.stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((file) => file.path);
}

const packed = new Map<string, string[]>();
beforeAll(() => {
  for (const folder of PACKAGE_FOLDERS) packed.set(folder, packedFiles(folder));
}, PACK_TIMEOUT_MS);

describe.each(PACKAGE_FOLDERS)("the package in %s", (folder) => {
  it("ships its README, and every relative link in it names a file or folder that ships with it", () => {
    const files = packed.get(folder)!;
    expect(files).toContain("README.md");
    const readme = readFileSync(join(ROOT, folder, "README.md"), "utf8");
    const broken = linkTargets(readme).filter(isRelative).filter((target) => {
      const path = normalize(target.replace(/#.*$/, "")).replace(/\/$/, "");
      return !files.some((file) => file === path || file.startsWith(`${path}/`));
    });
    expect(broken).toEqual([]);
  });

  it("links into the repository only at paths that exist there", () => {
    const readme = readFileSync(join(ROOT, folder, "README.md"), "utf8");
    const missing = linkTargets(readme).filter((target) => target.startsWith(`${REPOSITORY}/`)).filter((target) => {
      const path = /^\/(?:blob|tree)\/main\/(.+)$/.exec(target.slice(REPOSITORY.length).replace(/#.*$/, ""))?.[1];
      return path === undefined || !existsSync(join(ROOT, path));
    });
    expect(missing).toEqual([]);
  });

  it("names the repository, its folder, the home page, the issues, keywords and the Node.js versions", () => {
    const manifest = manifestOf(folder);
    expect(manifest.repository).toEqual({
      type: "git", url: `git+${REPOSITORY}.git`, ...(folder === "." ? {} : { directory: folder }),
    });
    expect(manifest.homepage).toBe(folder === "." ? `${REPOSITORY}#readme` : `${REPOSITORY}/tree/main/${folder}#readme`);
    expect(manifest.bugs).toEqual({ url: `${REPOSITORY}/issues` });
    expect(manifest.keywords?.length).toBeGreaterThanOrEqual(3);
    expect(manifest.engines?.node).toBe(">=20");
  });
});

it("finds links in prose and leaves out code", () => {
  expect(linkTargets("See [a](docs/A.md) and [`b`](https://x.test/b).\n```sh\n[c](no)\n```\n`[d](no)`")).toEqual(["docs/A.md", "https://x.test/b"]);
});
