// The codecs' WebAssembly, imported as compiled modules (workerd cannot compile WASM from bytes at
// run time; wrangler and the vitest plugin hand these over as WebAssembly.Module).
declare module "@cwasm/jpeg-turbo/jpeg-turbo.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
declare module "@cwasm/webp/webp.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
declare module "@cwasm/lodepng/lodepng.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
