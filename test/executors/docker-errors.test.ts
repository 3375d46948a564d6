// Failed engine calls become actionable errors: engine unreachable, image missing, or the engine's own refusal.
import { expect, it } from "vitest";
import { containerError, endpointName } from "../../src/executors/container/docker-errors.js";

it("names the engine without a host path", () => {
  expect(endpointName({ socketPath: "/run/user/1000/podman/podman.sock" })).toBe("the configured local socket");
  expect(endpointName({ host: "build", port: 2376, protocol: "https" })).toBe("https://build:2376");
});

it("classifies connection errors, a missing image and other refusals", () => {
  const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
  expect(containerError(refused, undefined, "img").code).toBe("container-engine-unavailable");
  const missing = Object.assign(new Error("(HTTP code 404) no such container - No such image: img"), { statusCode: 404, json: { message: "No such image: img" } });
  expect(containerError(missing, undefined, "img").code).toBe("container-image-missing");
  const conflict = Object.assign(new Error("(HTTP code 400)"), { statusCode: 400, json: { message: "invalid mount config" } });
  const error = containerError(conflict, undefined, "img");
  expect(error.code).toBe("container-setup-failed");
  expect(error.message).toContain("invalid mount config");
});
