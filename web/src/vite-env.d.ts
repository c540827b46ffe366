/// <reference types="vite/client" />

/** The dashboard engine's loops as WebAssembly, base64 (built by `engineLoops.config.ts`). */
declare module "virtual:engine-loops" {
  const wasm: string;
  export default wasm;
}
