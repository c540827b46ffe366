/// <reference types="vite/client" />

/** The dashboard engine's loops as WebAssembly (built by `engineLoops.config.ts`). */
declare module "virtual:engine-loops" {
  const wasm: Uint8Array<ArrayBuffer>;
  export default wasm;
}
