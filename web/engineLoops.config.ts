import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import asc from "assemblyscript/asc";
import type { Plugin } from "vite";

/**
 * `virtual:engine-loops`: the dashboard engine's loops (`wasm/engineLoops.ts`, AssemblyScript)
 * compiled to WebAssembly, as the bytes the engine instantiates synchronously. Built here, in
 * every build and test run, so no compiled binary is kept beside its source.
 */
export function engineLoops(): Plugin {
  const id = "virtual:engine-loops";
  const resolved = `\0${id}`;
  const source = fileURLToPath(new URL("./wasm/engineLoops.ts", import.meta.url));
  return {
    name: "engine-loops",
    resolveId: (name) => (name === id ? resolved : null),
    async load(name) {
      if (name !== resolved) return null;
      this.addWatchFile(source);
      const { binary, error, stderr } = await asc.compileString(
        { "engineLoops.ts": await readFile(source, "utf8") },
        { optimizeLevel: 3, shrinkLevel: 0, runtime: "stub", noAssert: true },
      );
      if (error || !binary) throw new Error(`wasm/engineLoops.ts does not compile: ${String(error)}\n${stderr}`);
      return `export default new Uint8Array(${JSON.stringify([...binary])});`;
    },
  };
}
