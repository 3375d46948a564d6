// Reads the `hostKey` option: the key blobs of .pub lines and known_hosts lines (issue 20).

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The public key blobs in `text`: every line's key-type token (`ssh-ed25519`, `ecdsa-sha2-nistp256`, `ssh-rsa`, …)
 * followed by its base64 blob, wherever the line puts it: `type blob [comment]` (.pub), `host type blob [comment]`
 * and `[host]:port type blob [comment]` (known_hosts, also with a `@marker` first). A pair counts only when the
 * blob names the same key type inside, so host names and comments are never mistaken for a key. Empty when none.
 */
export function parseHostKeys(text: string): Buffer[] {
  const keys: Buffer[] = [];
  for (const line of text.split(/\r?\n/)) {
    const tokens = line.trim().split(/\s+/);
    if (tokens[0]?.startsWith("#")) continue;
    for (let i = 0; i + 1 < tokens.length; i += 1) {
      const blob = keyBlob(tokens[i] ?? "", tokens[i + 1] ?? "");
      if (blob) {
        keys.push(blob);
        break;
      }
    }
  }
  return keys;
}

/** The decoded blob when `encoded` is base64 of an SSH public key of type `type`. */
function keyBlob(type: string, encoded: string): Buffer | undefined {
  if (!BASE64.test(encoded)) return undefined;
  const blob = Buffer.from(encoded, "base64");
  if (blob.length < 4) return undefined;
  const length = blob.readUInt32BE(0);
  if (length === 0 || 4 + length > blob.length) return undefined;
  return blob.subarray(4, 4 + length).toString("latin1") === type ? blob : undefined;
}
