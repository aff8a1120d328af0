import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Domain folders under app/modules must not import each other in a loop at run time: a loop makes the order in
// which modules initialise depend on which one is imported first. Type-only imports (`import type`) are erased
// and do not count; everything else (`import … from`, `export … from`, side-effect imports, `import()`) does.
const modulesRoot = path.resolve(import.meta.dirname, "../../app/modules");
const appRoot = path.resolve(import.meta.dirname, "../../app");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The folder a file belongs to; a file directly in app/modules (errors.server.ts) is a unit of its own. */
function unitOf(file: string): string {
  const [first = "", ...rest] = path.relative(modulesRoot, file).split(path.sep);
  return rest.length > 0 ? first : first.replace(/\.tsx?$/, "");
}

const staticImport = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?["']([^"']+)["']/gm;
const dynamicImport = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

function runTimeSpecifiers(source: string): string[] {
  const specifiers = [...source.matchAll(staticImport)].filter((m) => !m[1]).map((m) => m[2]!);
  return [...specifiers, ...[...source.matchAll(dynamicImport)].map((m) => m[1]!)];
}

function resolveInModules(file: string, specifier: string): string | null {
  let target: string;
  if (specifier.startsWith("~/")) target = path.join(appRoot, specifier.slice(2));
  else if (specifier.startsWith(".")) target = path.join(path.dirname(file), specifier);
  else return null;
  return target.startsWith(modulesRoot + path.sep) ? target : null;
}

type Graph = Map<string, Map<string, string>>; // folder → imported folder → one file import that makes the edge

function folderImportGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of sourceFiles(modulesRoot)) {
    const from = unitOf(file);
    for (const specifier of runTimeSpecifiers(fs.readFileSync(file, "utf8"))) {
      const target = resolveInModules(file, specifier);
      if (!target) continue;
      const to = unitOf(target);
      if (to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${path.relative(appRoot, file)} imports ${specifier}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** Strongly connected groups of two or more folders (Tarjan's algorithm): each is an import loop. */
function loops(graph: Graph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("app/modules import graph", () => {
  it("sees the imports between folders (the walk itself works)", () => {
    const graph = folderImportGraph();
    expect(graph.get("signals")?.has("formats")).toBe(true);
    expect(graph.get("mail")?.has("formats")).toBe(true);
    expect(graph.get("leads")?.has("time")).toBe(true);
  });

  it("finds a loop when there is one", () => {
    const graph: Graph = new Map([
      ["a", new Map([["b", "a imports b"]])],
      ["b", new Map([["c", "b imports c"]])],
      ["c", new Map([["a", "c imports a"]])],
      ["d", new Map([["a", "d imports a"]])],
    ]);
    expect(loops(graph)).toEqual([["a", "b", "c"]]);
  });

  it("has no loop between module folders at run time", () => {
    const graph = folderImportGraph();
    const described = loops(graph).map((group) =>
      group.flatMap((from) =>
        [...(graph.get(from) ?? new Map<string, string>())]
          .filter(([to]) => group.includes(to))
          .map(([to, why]) => `${from} → ${to} (${why})`),
      ),
    );
    expect(described).toEqual([]);
  });
});
