/** Size and mtime of every source file, by path relative to the repository root. */
export function sourceInputs(root: string): Record<string, { size: number; mtimeMs: number }>;
export function writeBuildManifest(root: string, inputs: Record<string, { size: number; mtimeMs: number }>): void;
/** Whether dist/ was built from the sources as they are now. */
export function isBuildFresh(root: string): boolean;
export const MANIFEST: string;
/** The module a repository entry script loads: `built` (under dist/) while the build is fresh, else `source` through tsx. */
export function repositoryModule(root: string, built: string, source: URL, onStale?: () => void): Promise<string>;
