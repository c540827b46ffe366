import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// The import rules of ARCHITECTURE.md, checked on the source itself: files that import each other in a cycle
// cannot be read, tested or split alone, and features that reach into app/ or into each other grow together.

const SRC = resolve(import.meta.dirname);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\bnew URL\(\s*)"(\.{1,2}\/[^"]*)"/g;

function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find(
    (candidate) => /\.tsx?$/.test(candidate) && existsSync(candidate),
  );
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, "utf8");
    const targets = [...text.matchAll(SPECIFIER)].flatMap((match) => resolveImport(file, match[1] ?? "") ?? []);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Tarjan's strongly connected components with more than one file, or a file that imports itself. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** Where a file may import from: a feature from shared/ and itself, shared/ from itself; app/ composes anything. */
function allowedRoots(file: string): string[] | undefined {
  const [area, feature] = relative(SRC, file).split("/");
  if (area === "shared") return ["shared"];
  if (area === "features" && feature !== undefined) return ["shared", `features/${feature}`];
  return undefined;
}

function boundaryViolations(graph: Map<string, string[]>): string[] {
  return [...graph].flatMap(([file, targets]) => {
    const allowed = allowedRoots(file);
    if (allowed === undefined) return [];
    return targets
      .filter((target) => !allowed.some((root) => relative(SRC, target).startsWith(`${root}/`)))
      .map((target) => `${relative(SRC, file)} -> ${relative(SRC, target)}`);
  });
}

describe("web/src imports", () => {
  const graph = importGraph();

  it("sees the app's files and their imports", () => {
    expect(graph.get(join(SRC, "main.tsx"))).toContain(join(SRC, "App.tsx"));
  });

  it("have no cycles", () => {
    expect(cycles(graph).map((component) => component.map((file) => relative(SRC, file)))).toEqual([]);
  });

  it("keep features apart: a feature imports shared/ and itself, shared/ imports only shared/", () => {
    expect(boundaryViolations(graph)).toEqual([]);
  });
});
