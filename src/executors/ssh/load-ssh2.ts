// ssh2 is an optional peer dependency: loaded on first use, with an install hint when it is absent.
import * as messages from "../../engine/messages.js";

type Ssh2 = typeof import("ssh2");
let loading: Promise<Ssh2> | undefined;

export function loadSsh2(): Promise<Ssh2> {
  loading ??= import("ssh2").then(
    (module) => ((module as { default?: Ssh2 }).default ?? module) as Ssh2,
    () => {
      loading = undefined;
      throw new Error(messages.SSH_MODULE_MISSING);
    },
  );
  return loading;
}
