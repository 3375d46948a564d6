// What a failed call to the container engine means for the model and the embedder (issue 21).
import { ExecProcessError } from "../../engine/index.js";
import type { DockerConnection } from "./container-options.js";

/** The engine as the messages name it: an address, never a host path (the model reads these texts). */
export function endpointName(docker: DockerConnection | undefined): string {
  if (docker === undefined) return "the default Docker endpoint (DOCKER_HOST or the local socket)";
  if ("socketPath" in docker) return "the configured local socket";
  return `${docker.protocol}://${docker.host}${docker.port === undefined ? "" : `:${docker.port}`}`;
}

const UNREACHABLE = new Set(["ENOENT", "ECONNREFUSED", "ECONNRESET", "EACCES", "EHOSTUNREACH", "ENOTFOUND", "ETIMEDOUT", "EPIPE"]);

/** The ExecProcessError for an error of dockerode while a container was created or started. */
export function containerError(error: unknown, docker: DockerConnection | undefined, image: string): ExecProcessError {
  if (ExecProcessError.is(error)) return error;
  const { statusCode, code, message, json } = (error ?? {}) as { statusCode?: number; code?: string; message?: string; json?: { message?: string } };
  const said = json?.message ?? message ?? String(error);
  if (statusCode === 404 && /image/i.test(said)) return new ExecProcessError({ code: "container-image-missing", image }, { cause: error });
  if (statusCode === undefined && (code === undefined || UNREACHABLE.has(code) || /connect|socket|ssh|handshake/i.test(said))) {
    return new ExecProcessError({ code: "container-engine-unavailable", endpoint: endpointName(docker), reason: code ?? said }, { cause: error });
  }
  return new ExecProcessError({ code: "container-setup-failed", reason: said }, { cause: error });
}
