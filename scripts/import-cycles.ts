/**
 * The import graph has no cycle, type imports included (issue 27, item 1).
 *
 * Reads every module of `src/`, `functions/` and `server.ts` (TypeScript, and the
 * frontmatter of `.astro` files), and follows every edge a reader would follow:
 * `import` and `import type`, `export … from`, `import x = require(…)`, dynamic
 * `import(…)` and type-position `import('…').T`. Specifiers are resolved as `tsc`
 * resolves them (the project's tsconfig); only edges into the project count. Then
 * Tarjan's algorithm finds the strongly connected components: every component with more
 * than one module, or a module importing itself, is a cycle.
 *
 * Beside cycles, the layering of issue 27 is checked edge by edge (`LAYERS`): handlers
 * and tools read contexts of their own, never the runtime that assembles them, and the
 * generation and the dispatcher import no handler. The image writer's thread imports
 * nothing but the image's layout, as it starts with every compile.
 *
 * Exit status 0 when there is no cycle and no edge across a layer; otherwise 1, each
 * cycle printed with its modules and one loop through them, so the edge to cut can be
 * read off, and each forbidden edge with the rule it breaks.
 *
 * `node scripts/import-cycles.ts [--json]`
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const roots = ['src', 'functions', 'server.ts'];

function compilerOptions(): ts.CompilerOptions {
  const configPath = join(root, 'tsconfig.json');
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(read.config, ts.sys, root, undefined, configPath).options;
}

function listModules(): string[] {
  const files: string[] = [];
  const walk = (path: string): void => {
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) walk(join(path, name));
    } else if (/\.(?:[cm]?ts|tsx|astro)$/.test(path)) {
      files.push(path);
    }
  };
  for (const r of roots) walk(join(root, r));
  return files;
}

/** Every module specifier a file names, in any position. */
function specifiers(file: string): string[] {
  let text = readFileSync(file, 'utf8');
  if (file.endsWith('.astro')) {
    const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
    const scripts = [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    text = [front?.[1] ?? '', ...scripts].join('\n');
  }
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const literal = (node: ts.Node | undefined): void => {
    if (node && ts.isStringLiteralLike(node)) found.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      literal(node.moduleSpecifier);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      literal(node.moduleReference.expression);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      literal(node.arguments[0]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      literal(node.argument.literal);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

export interface ImportGraph {
  /** Project-relative paths, sorted. */
  modules: string[];
  /** Module → the project modules it imports (sorted). */
  edges: Map<string, string[]>;
}

export function importGraph(): ImportGraph {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const files = listModules();
  const inProject = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const spec of specifiers(file)) {
      let target: string | undefined;
      if (spec.endsWith('.astro') && spec.startsWith('.')) {
        target = resolve(dirname(file), spec);
      } else {
        const resolved = ts.resolveModuleName(spec, file, options, host).resolvedModule;
        target = resolved && !resolved.isExternalLibraryImport ? resolve(resolved.resolvedFileName) : undefined;
      }
      if (target && inProject.has(target)) targets.add(relative(root, target));
    }
    edges.set(relative(root, file), [...targets].sort());
  }
  return { modules: [...edges.keys()].sort(), edges };
}

/** An import the layering forbids: from a module matching `from` to one matching `to`. */
export interface LayerRule {
  from: RegExp;
  to: RegExp;
  why: string;
}

/** The runtime's assembly: the generation, its handlers' assembly, the route table, the dispatcher, the generations. */
const ASSEMBLY = /^src\/runtime\/(?:runtime|serving|route|routes|dispatch|generations)\.ts$/;

export const LAYERS: readonly LayerRule[] = [
  {
    from: /^(?:functions|src\/(?:mcp|owner|site|rpc|oauth|compile|core|http|taste|formats|collections|openapi|graphql|sql))\//,
    to: ASSEMBLY,
    why: 'handlers, tools and the layers under them read a context of their own, never the Runtime that assembles them',
  },
  {
    from: /^src\/runtime\/(?:runtime|dispatch|route)\.ts$/,
    to: /^functions\//,
    why: 'the generation and the dispatcher import no handler: the route table assembles them (src/runtime/serving.ts, src/runtime/routes.ts)',
  },
  {
    from: /^src\/compile\/artifacts\/image-(?:thread|tables)\.ts$/,
    to: /^(?!src\/compile\/artifacts\/image-tables\.ts$|src\/core\/image-layout\.ts$)/,
    why: 'a compile starts the image writer thread, which loads what these import: through src/core/image.ts it loaded zod too, 120 ms of CPU a compile',
  },
];

/** Every edge of the graph that a rule forbids. */
export function layerViolations(graph: ImportGraph, rules: readonly LayerRule[] = LAYERS): { from: string; to: string; why: string }[] {
  const found: { from: string; to: string; why: string }[] = [];
  for (const [from, targets] of graph.edges) {
    for (const to of targets) for (const rule of rules) if (rule.from.test(from) && rule.to.test(to)) found.push({ from, to, why: rule.why });
  }
  return found;
}

/** Tarjan's strongly connected components that are cycles, each sorted, largest first. */
export function cycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  // Iterative, so a deep graph cannot overflow the call stack.
  for (const start of graph.modules) {
    if (index.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const out = graph.edges.get(frame.node) ?? [];
      if (frame.i < out.length) {
        const to = out[frame.i++];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, i: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = component.length === 1 && (graph.edges.get(member) ?? []).includes(member);
        if (component.length > 1 || selfLoop) found.push(component.sort());
      }
    }
  }
  return found.sort((a, b) => b.length - a.length || a[0].localeCompare(b[0]));
}

/** One shortest loop through a component, starting at its first module (breadth-first). */
export function loopThrough(graph: ImportGraph, component: string[]): string[] {
  const members = new Set(component);
  const start = component[0];
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const node = queue.shift()!;
    for (const to of graph.edges.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0])!);
        return [...path, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

if (import.meta.main) {
  const graph = importGraph();
  const found = cycles(graph);
  const crossings = layerViolations(graph);
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ cycles: found.map((c) => ({ modules: c, loop: loopThrough(graph, c) })), layers: crossings }, null, 2));
  } else if (found.length === 0 && crossings.length === 0) {
    console.log(`import-cycles: ${graph.modules.length} modules, no cycle (type imports included), no edge across a layer`);
  } else {
    if (found.length > 0) console.error(`import-cycles: ${found.length} cycle(s) among ${graph.modules.length} modules (type imports included)`);
    for (const [n, component] of found.entries()) {
      console.error(`\ncycle ${n + 1}: ${component.length} modules`);
      for (const m of component) console.error(`  ${m}`);
      console.error(`  one loop: ${loopThrough(graph, component).join(' → ')}`);
    }
    if (crossings.length > 0) console.error(`\nimport-cycles: ${crossings.length} import(s) across a layer`);
    for (const c of crossings) console.error(`  ${c.from} → ${c.to}: ${c.why}`);
  }
  process.exitCode = found.length === 0 && crossings.length === 0 ? 0 : 1;
}
