// Types of scripts/podman-service.mjs.
import type { DockerDaemon } from "./docker-daemon.mjs";
export function podmanUnavailableReason(): string | undefined;
export function startPodmanService(): Promise<DockerDaemon>;
