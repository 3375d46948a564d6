// dockerode is an optional peer dependency: loaded on first use, with an install hint when it is absent.
import { ExecProcessError } from "../../engine/index.js";

export type DockerodeClass = typeof import("dockerode");
let loading: Promise<DockerodeClass> | undefined;

export function loadDockerode(): Promise<DockerodeClass> {
  loading ??= import("dockerode").then(
    (module) => ((module as { default?: DockerodeClass }).default ?? module) as DockerodeClass,
    () => {
      loading = undefined;
      throw new ExecProcessError({ code: "container-module-missing" });
    },
  );
  return loading;
}
