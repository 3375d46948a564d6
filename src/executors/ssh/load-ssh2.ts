// ssh2 is an optional peer dependency: loaded on first use, with an install hint when it is absent.
import { ExecProcessError } from "../../engine/index.js";

type Ssh2 = typeof import("ssh2");
let loading: Promise<Ssh2> | undefined;

export function loadSsh2(): Promise<Ssh2> {
  loading ??= import("ssh2").then(
    (module) => ((module as { default?: Ssh2 }).default ?? module) as Ssh2,
    () => {
      loading = undefined;
      throw new ExecProcessError({ code: "ssh-module-missing" });
    },
  );
  return loading;
}
