// The SHA-256 an attestation carries for each image. No imports, so the offline verifier
// (scripts/lib/verify-attestation.ts, run by Node) computes digests with this same function.

/** Hex SHA-256 of bytes, as the attestation carries image digests. */
export async function digestHex(bytes: Uint8Array | ArrayBuffer): Promise<string> {
  // A copy into a plain ArrayBuffer-backed view: digest() takes no view over a SharedArrayBuffer.
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(bytes)));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
