// Optional peer dependencies (ssh2, dockerode), loaded on first use. A failed load is not kept, since the package may
// be installed while the engine runs; it becomes the error that says what to install.
import { ExecProcessError } from "../engine/index.js";

/** A loader of the module `importModule` imports: its default export, or the module itself for CommonJS. */
export function optionalModule<Module>(
  importModule: () => Promise<unknown>, missing: "ssh-module-missing" | "container-module-missing",
): () => Promise<Module> {
  let loading: Promise<Module> | undefined;
  return () => (loading ??= importModule().then(
    (module) => ((module as { default?: Module }).default ?? module) as Module,
    () => {
      loading = undefined;
      throw new ExecProcessError({ code: missing });
    },
  ));
}
