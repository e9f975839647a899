// The part of `node:zlib` the Worker uses (workerd implements it natively under nodejs_compat),
// declared here for the reason given in node-crypto.d.ts.
declare module "node:zlib" {
  export function deflateSync(data: Uint8Array, options?: { level?: number }): Uint8Array;
}
