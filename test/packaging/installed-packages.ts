// What an npm install put into node_modules, read from npm's own record of it (node_modules/.package-lock.json).
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export interface InstalledPackage {
  /** Where it lies, relative to the project: `node_modules/a/node_modules/b`. */
  location: string;
  name: string;
  /** Names it needs at run time: dependencies, peer and optional dependencies. */
  needs: string[];
  /** Total size of its files, without nested node_modules. */
  bytes: number;
}

interface LockEntry {
  name?: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

export function installedPackages(project: string): InstalledPackage[] {
  const lock = JSON.parse(readFileSync(join(project, "node_modules/.package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
  return Object.entries(lock.packages).filter(([location]) => location !== "").map(([location, entry]) => ({
    location,
    name: entry.name ?? location.slice(location.lastIndexOf("node_modules/") + "node_modules/".length),
    needs: Object.keys({ ...entry.dependencies, ...entry.peerDependencies, ...entry.optionalDependencies }),
    bytes: folderBytes(join(project, location)),
  }));
}

/** The packages that none of the roots needs, directly or through others (resolved as Node resolves them). */
export function packagesBeyond(installed: InstalledPackage[], roots: string[]): InstalledPackage[] {
  const byLocation = new Map(installed.map((pkg) => [pkg.location, pkg]));
  const reached = new Set<string>();
  const visit = (from: string, name: string): void => {
    const found = resolveFrom(byLocation, from, name);
    if (!found || reached.has(found.location)) return;
    reached.add(found.location);
    for (const need of found.needs) visit(found.location, need);
  };
  for (const root of roots) visit("", root);
  return installed.filter((pkg) => !reached.has(pkg.location));
}

/** The nearest `node_modules/<name>` at or above `from`. */
function resolveFrom(byLocation: Map<string, InstalledPackage>, from: string, name: string): InstalledPackage | undefined {
  for (let base = from; ; ) {
    const found = byLocation.get(base === "" ? `node_modules/${name}` : `${base}/node_modules/${name}`);
    if (found) return found;
    if (base === "") return undefined;
    const parent = base.lastIndexOf("/node_modules/");
    base = parent < 0 ? "" : base.slice(0, parent);
  }
}

function folderBytes(folder: string): number {
  let bytes = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name === "node_modules") continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) bytes += folderBytes(path);
    else if (entry.isFile()) bytes += statSync(path).size;
  }
  return bytes;
}
