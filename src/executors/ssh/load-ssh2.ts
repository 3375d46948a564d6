// ssh2 is an optional peer dependency: loaded on first use, with an install hint when it is absent.
import { optionalModule } from "../optional-module.js";

type Ssh2 = typeof import("ssh2");

export const loadSsh2 = optionalModule<Ssh2>(() => import("ssh2"), "ssh-module-missing");
