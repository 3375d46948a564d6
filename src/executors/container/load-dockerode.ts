// dockerode is an optional peer dependency: loaded on first use, with an install hint when it is absent.
import { optionalModule } from "../optional-module.js";

export type DockerodeClass = typeof import("dockerode");

export const loadDockerode = optionalModule<DockerodeClass>(() => import("dockerode"), "container-module-missing");
