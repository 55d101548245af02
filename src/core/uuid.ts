/**
 * @internal A random (version 4) UUID from Web Crypto, which Node 20 and
 * every browser have as `globalThis.crypto`, so ids need no `node:crypto`.
 * `randomUUID` exists only in secure contexts (https, localhost); a page
 * served over plain http still has `getRandomValues`, and the same UUID is
 * built from it.
 */
export function randomUuid(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40; // version 4
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80; // RFC 4122 variant
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
