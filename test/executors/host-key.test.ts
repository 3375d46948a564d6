// hostKey accepts the forms people paste: .pub lines, known_hosts lines and ssh-keyscan output (issue 20).
import { describe, expect, it } from "vitest";
import { parseHostKeys } from "../../src/executors/ssh/host-key.js";

/** An SSH key blob of `type` with some key bytes, in base64. */
const blobOf = (type: string, body = "key-bytes"): string => {
  const name = Buffer.from(type, "latin1");
  const length = Buffer.alloc(4);
  length.writeUInt32BE(name.length);
  return Buffer.concat([length, name, Buffer.from(body)]).toString("base64");
};
const ED = blobOf("ssh-ed25519");
const RSA = blobOf("ssh-rsa", "other");

describe("parseHostKeys", () => {
  it.each([
    ["a .pub line", `ssh-ed25519 ${ED}`],
    ["a .pub line with a comment", `ssh-ed25519 ${ED} root@build`],
    ["a known_hosts line with [host]:port", `[10.0.0.7]:2222 ssh-ed25519 ${ED}`],
    ["a known_hosts line with [host]:port and a comment", `[10.0.0.7]:2222 ssh-ed25519 ${ED} build node`],
    ["a known_hosts line with host names", `build,10.0.0.7 ssh-ed25519 ${ED}`],
    ["a hashed known_hosts line", `|1|c2FsdA==|aGFzaA== ssh-ed25519 ${ED}`],
    ["a marked known_hosts line", `@cert-authority *.example.com ssh-ed25519 ${ED}`],
    ["surrounding blanks and CRLF", `  \r\nssh-ed25519 ${ED}  \r\n`],
  ])("reads %s", (_, text) => {
    expect(parseHostKeys(text)).toEqual([Buffer.from(ED, "base64")]);
  });

  it("reads every key of ssh-keyscan output, skipping its comment lines", () => {
    const scan = `# 10.0.0.7:22 SSH-2.0-OpenSSH_9.2\n10.0.0.7 ssh-rsa ${RSA}\n# again\n10.0.0.7 ssh-ed25519 ${ED}\n`;
    expect(parseHostKeys(scan)).toEqual([Buffer.from(RSA, "base64"), Buffer.from(ED, "base64")]);
  });

  it.each([
    ["empty", ""],
    ["blank", "  \n "],
    ["a type without a key", "ssh-ed25519"],
    ["words", "not a key"],
    ["a blob of another type than its line says", `ssh-rsa ${ED}`],
    ["a blob that is not base64", "ssh-ed25519 AAAA$$$$"],
    ["a truncated blob", `ssh-ed25519 ${ED.slice(0, 8)}`],
  ])("finds no key in %s", (_, text) => {
    expect(parseHostKeys(text)).toEqual([]);
  });
});
