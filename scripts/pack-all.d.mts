/** The package folders, relative to the repository root, tools first. */
export const PACKAGE_FOLDERS: string[];
/** Builds unless dist/ matches the sources, then packs every package into `destination`; returns the tarballs' paths. */
export function packAll(destination: string): string[];
