/** The package folders, relative to the repository root, tools first. */
export const PACKAGE_FOLDERS: string[];
/** Builds unless dist/ matches the sources, then packs every package into `destination`; returns the tarballs' paths. */
export function packAll(destination: string): string[];
/** The install commands `pack:all` prints: the tools as a dependency, then the kit as a devDependency, then the server. */
export function installLines(tools: string, kit: string, mcp: string): string[];
