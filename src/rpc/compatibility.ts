/**
 * Whether a new RPC declaration still serves clients compiled against the committed one,
 * decided by the TypeScript compiler itself: both declarations are loaded as modules and
 * a check file asserts, for every type the committed one exports, that the new type is
 * assignable to the old (outputs and capabilities: nothing removed, nothing narrowed),
 * or for input types — filters and sort fields — that the old is assignable to the new
 * (what a client could send is still accepted), and that no member of an old type is
 * missing from the new one, optional members included. Each failed assertion is a
 * breaking change, named by the type.
 */
import ts from 'typescript';

/** Input types: a client sends these, so they may only widen. */
const INPUT = /(Filters|SortField|SortDirection|ExportFormat)$/;

export function incompatibilities(committed: string, current: string): string[] {
  const oldNames = exportedNames(committed);
  const newNames = new Set(exportedNames(current));
  const problems = oldNames.filter((name) => !newNames.has(name)).map((name) => `${name} was removed`);
  const checked = oldNames.filter((name) => newNames.has(name));
  const lines = checked.map((name, i) => {
    const [from, to] = INPUT.test(name) ? [`O.${name}`, `N.${name}`] : [`N.${name}`, `O.${name}`];
    // Generic types are compared at `never` arguments (their concrete uses are exported types of their own).
    const args = genericArity(committed, name);
    const params = args === 0 ? '' : `<${Array.from({ length: args }, () => 'never').join(', ')}>`;
    // And no member removed, optional ones included (assignability alone would not notice).
    return `type _${i} = Assert<${from}${params}, ${to}${params}>; // ${name}\ntype _k${i} = Assert<keyof O.${name}${params}, keyof N.${name}${params}>; // ${name}`;
  });
  const check = `import type * as O from './old';\nimport type * as N from './new';\ntype Assert<T extends U, U> = T;\n${lines.join('\n')}\nexport {};\n`;
  // Virtual files beside this module, so `capnweb` resolves from the project's node_modules.
  const dir = new URL('./compatibility-check/', import.meta.url).pathname;
  const files = new Map([
    [`${dir}old.d.ts`, committed],
    [`${dir}new.d.ts`, current],
    [`${dir}check.ts`, check],
  ]);
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.esnext.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    skipLibCheck: true,
    allowImportingTsExtensions: true,
  };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  const getSource = host.getSourceFile.bind(host);
  host.readFile = (file) => files.get(file) ?? read(file);
  host.fileExists = (file) => files.has(file) || exists(file);
  host.getSourceFile = (file, language, onError, create) =>
    files.has(file) ? ts.createSourceFile(file, files.get(file)!, language, true) : getSource(file, language, onError, create);
  host.directoryExists = (directory) => directory === dir.replace(/\/$/, '') || ts.sys.directoryExists(directory);
  const program = ts.createProgram([`${dir}check.ts`], options, host);
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file;
    const line = file && diagnostic.start !== undefined ? file.getLineAndCharacterOfPosition(diagnostic.start).line : -1;
    const name = file?.fileName === `${dir}check.ts` ? /\/\/ (\S+)$/.exec(check.split('\n')[line] ?? '')?.[1] : undefined;
    if (name === undefined) {
      // Only the two declarations and the check itself are judged; libraries are not.
      if (!file || !files.has(file.fileName)) continue;
      problems.push(`the declaration does not compile: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`);
      continue;
    }
    problems.push(`${name} was narrowed or changed incompatibly`);
  }
  return [...new Set(problems)];
}

/** Names the declaration exports (interfaces and type aliases). */
function exportedNames(text: string): string[] {
  return [...text.matchAll(/^export (?:interface|type) ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]!);
}

/** How many type parameters an exported type declares. */
function genericArity(text: string, name: string): number {
  const match = new RegExp(`^export (?:interface|type) ${name}<([^>]*(?:<[^>]*>[^>]*)*)>`, 'm').exec(text);
  return match ? match[1]!.split(',').length : 0;
}
