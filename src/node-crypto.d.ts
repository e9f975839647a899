// The part of `node:crypto` the Worker uses (workerd implements it natively under nodejs_compat).
// Declared here rather than pulling @types/node into the Worker's types, whose globals (fetch,
// Response, timers) clash with @cloudflare/workers-types.
declare module "node:crypto" {
  interface Hash {
    update(data: string | Uint8Array): Hash;
    digest(): Uint8Array;
    digest(encoding: "hex"): string;
  }
  export function createHash(algorithm: "sha256"): Hash;
  export function createHmac(algorithm: "sha256", key: string | Uint8Array): Hash;
}
