/**
 * The configuration module (src/config.ts): every environment variable the code reads is
 * declared there and read nowhere else, a bad value is refused with a message naming the
 * variable and what it accepts, and an unset or empty variable takes its default.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import fc from '../helpers/fc.ts';
import { ConfigError, readConfig, VARIABLES, wholeNumber, type VariableName } from '../../src/config.ts';
import { LIMITS } from '../../src/core/limits.ts';

const root = join(import.meta.dirname, '../..');
const CONFIG_MODULE = 'src/config.ts';
/** What a worker's `env` holds that is not a variable: Pages' binding of the static files (src/edge/worker.ts). */
const BINDINGS = new Set(['ASSETS']);

/** Every script of the project, the tests and benchmarks included (fixtures and golden folders are data). */
function scripts(): string[] {
  const found: string[] = [];
  const walk = (path: string): void => {
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path)) if (!['node_modules', 'fixtures', 'golden'].includes(name)) walk(join(path, name));
    } else if (/\.(?:[cm]?[jt]s|tsx)$/.test(path)) {
      found.push(relative(root, path));
    }
  };
  for (const top of ['src', 'functions', 'scripts', 'tests', 'bench', 'server.ts', 'astro.config.mjs']) walk(join(root, top));
  return found;
}

interface Read {
  file: string;
  line: number;
  /** The variable, or undefined when the whole environment is read. */
  name: string | undefined;
  /** Through `process.env` (only the configuration module may), or a worker's `env` binding. */
  via: 'process.env' | 'env';
}

const isProcessEnv = (node: ts.Node): node is ts.PropertyAccessExpression =>
  ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'process' && node.name.text === 'env';

/** Every read of an environment variable in `file`: `process.env.X`, `process.env['X']`, `process.env` handed to a function, and `env.X`. */
function reads(file: string): Read[] {
  const text = readFileSync(join(root, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, /\.m?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS);
  const found: Read[] = [];
  const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const visit = (node: ts.Node): void => {
    if (isProcessEnv(node)) {
      const parent = node.parent;
      const assigned = (n: ts.Node) => ts.isBinaryExpression(n.parent) && n.parent.left === n && n.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
      if (ts.isPropertyAccessExpression(parent) && parent.expression === node) {
        // Setting a variable for the process itself (`process.env.TZ = …` in a test) reads nothing.
        if (!assigned(parent)) found.push({ file, line: at(node), name: parent.name.text, via: 'process.env' });
      } else if (ts.isElementAccessExpression(parent) && parent.expression === node) {
        const key = parent.argumentExpression;
        found.push({ file, line: at(node), name: ts.isStringLiteralLike(key) ? key.text : undefined, via: 'process.env' });
      } else if (!ts.isSpreadAssignment(parent)) {
        // `{ ...process.env, PORT: '0' }` hands the environment on to a child process; anything else reads all of it.
        found.push({ file, line: at(node), name: undefined, via: 'process.env' });
      }
    } else if (
      ts.isPropertyAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'env' &&
      /^[A-Z][A-Z0-9_]*$/.test(node.name.text)
    ) {
      found.push({ file, line: at(node), name: node.name.text, via: 'env' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const allReads = scripts().flatMap(reads);
const declared = new Set<string>(Object.keys(VARIABLES));

test('the environment is read only by src/config.ts; everywhere else reads its configuration', () => {
  const elsewhere = allReads.filter((r) => r.via === 'process.env' && r.file !== CONFIG_MODULE);
  assert.deepEqual(
    elsewhere.map((r) => `${r.file}:${r.line} reads ${r.name ?? 'process.env'}`),
    [],
    'read it from config() (src/config.ts), declaring the variable there if it is new',
  );
  assert.ok(
    allReads.some((r) => r.file === CONFIG_MODULE && r.name === undefined),
    'the scan finds the one read it allows',
  );
});

test('every variable the code reads is declared in src/config.ts', () => {
  const undeclared = allReads.filter((r) => r.name !== undefined && !declared.has(r.name) && !BINDINGS.has(r.name));
  assert.deepEqual(
    undeclared.map((r) => `${r.file}:${r.line} reads ${r.name}`),
    [],
  );
  assert.ok(
    allReads.some((r) => r.name === 'ORIGIN_URL' && r.via === 'env'),
    "the scan sees the edge worker's binding",
  );
});

test('every declared variable is read somewhere, says when and what, and its default parses', () => {
  const sources = scripts()
    .filter((f) => f !== CONFIG_MODULE)
    .map((f) => readFileSync(join(root, f), 'utf8'));
  for (const [name, variable] of Object.entries(VARIABLES)) {
    assert.ok(variable.when.length > 0 && variable.what.length > 0, name);
    assert.ok(
      sources.some((text) => new RegExp(`\\b${name}\\b`).test(text)),
      `${name} is declared but no code names it`,
    );
  }
  assert.doesNotThrow(() => readConfig({}));
});

test('defaults apply when a variable is unset or empty; the configuration is frozen', () => {
  for (const env of [{}, Object.fromEntries(Object.keys(VARIABLES).map((name) => [name, '']))]) {
    const config = readConfig(env);
    assert.ok(Object.isFrozen(config));
    assert.equal(config.PORT, 4321);
    assert.equal(config.HOST, 'localhost');
    assert.equal(config.IDP_PORT, 4400);
    assert.equal(config.ANSWER_CACHE_BYTES, LIMITS.answerCacheBytes);
    assert.equal(config.PAGE_CACHE_BYTES, LIMITS.pageCacheBytes);
    assert.equal(config.RATE_LIMIT_REQUESTS, LIMITS.restRequestsPerWindow);
    assert.equal(config.SQL_RATE_LIMIT_REQUESTS, LIMITS.sqlRequestsPerWindow);
    assert.equal(config.GRAPHQL_COST_BUDGET, LIMITS.graphqlCostPerWindow);
    assert.equal(config.MCP_RATE_LIMIT_REQUESTS, LIMITS.mcpRequestsPerWindow);
    assert.equal(config.MCP_TOOL_WORK_BUDGET, LIMITS.mcpToolWorkPerWindow);
    assert.equal(config.RPC_SESSION_LIMIT, LIMITS.rpcSessionsPerWindow);
    assert.equal(config.REPLICAS, 1);
    assert.equal(config.REDIS_KEY_PREFIX, 'collections:quota:');
    assert.equal(config.RELEASES_CHANNEL, 'collections:releases');
    assert.equal(config.CURSOR_SECRET, 'collections-demo-secret');
    assert.equal(config.CONTENT_DIR, join(process.cwd(), 'content'));
    assert.equal(config.DIST_DIR, join(process.cwd(), 'dist'));
    assert.equal(config.STATE_DIR, join(process.cwd(), 'state'));
    assert.deepEqual(config.TRUSTED_PROXIES, []);
    assert.equal(config.OAUTH_CIMD_ALLOW_LOOPBACK, false);
    assert.equal(config.REQUIRE_REDIS, false);
    assert.equal(config.FC_SEED, 20261122);
    for (const name of [
      'REDIS_URL',
      'RELEASES_DIR',
      'SITE_URL',
      'SITE_AUTHOR',
      'SOURCE_DATE_EPOCH',
      'OWNER_SUBJECT',
      'UPDATE_GOLDEN',
      'CHROMIUM_PATH',
    ] as const)
      assert.equal(config[name], undefined, name);
  }
});

test('set values are parsed into their types', () => {
  const config = readConfig({
    PORT: '0',
    TRUSTED_PROXIES: ' 10.0.0.1, ,10.0.0.2 ',
    SOURCE_DATE_EPOCH: '1795392000',
    OAUTH_CIMD_ALLOW_LOOPBACK: '1',
    REDIS_URL: 'redis://cache:6379/2',
    DIST_DIR: '/srv/site/dist',
    UPDATE_GOLDEN: 'yes',
  });
  assert.equal(config.PORT, 0, '0 asks for any free port');
  assert.deepEqual(config.TRUSTED_PROXIES, ['10.0.0.1', '10.0.0.2']);
  assert.ok(Object.isFrozen(config.TRUSTED_PROXIES));
  assert.equal(config.SOURCE_DATE_EPOCH, 1_795_392_000_000);
  assert.equal(config.OAUTH_CIMD_ALLOW_LOOPBACK, true);
  assert.equal(config.REDIS_URL, 'redis://cache:6379/2');
  assert.equal(config.DIST_DIR, '/srv/site/dist');
  assert.equal(config.UPDATE_GOLDEN, true);
});

const refusal = (env: Record<string, string>): string => {
  try {
    readConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.message;
  }
  return assert.fail(`${JSON.stringify(env)} was accepted`);
};

test('a bad value is refused with a message naming the variable, what it accepts and what it got', () => {
  assert.equal(refusal({ PORT: 'abc' }), 'Configuration: PORT must be a whole number from 0 to 65535; got "abc"');
  assert.equal(
    refusal({ ANSWER_CACHE_BYTES: '-1' }),
    `Configuration: ANSWER_CACHE_BYTES must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}; got "-1"`,
  );
  assert.match(refusal({ PORT: '65536' }), /PORT must be a whole number from 0 to 65535/);
  assert.match(refusal({ RATE_LIMIT_REQUESTS: '0' }), /RATE_LIMIT_REQUESTS must be a whole number from 1/);
  assert.match(refusal({ REPLICAS: 'two' }), /REPLICAS must be a whole number from 1 to 1000/);
  assert.match(refusal({ GRAPHQL_COST_BUDGET: '1e6' }), /GRAPHQL_COST_BUDGET/);
  assert.match(refusal({ SITE_URL: 'ftp://me.example' }), /SITE_URL must be an absolute http or https URL/);
  assert.match(refusal({ REDIS_URL: 'localhost:6379' }), /REDIS_URL must be an absolute redis or rediss URL/);
  assert.match(refusal({ OAUTH_CIMD_ALLOW_LOOPBACK: 'yes' }), /OAUTH_CIMD_ALLOW_LOOPBACK must be 0 or 1/);
  assert.match(refusal({ REQUIRE_REDIS: 'true' }), /REQUIRE_REDIS must be 0 or 1/);
  assert.match(refusal({ SOURCE_DATE_EPOCH: '2026-11-23' }), /SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01T00:00:00Z/);
  assert.match(refusal({ FC_SEED: 'seed' }), /FC_SEED must be an integer/);
  const several = refusal({ PORT: 'abc', PAGE_CACHE_BYTES: '1.5', HOST: 'localhost' });
  assert.match(several, /PORT must be/);
  assert.match(several, /PAGE_CACHE_BYTES must be/);
  assert.doesNotMatch(several, /HOST/, 'only the variables at fault are named');
});

test('server.ts stops at start-up on a bad value, naming it, with exit status 2', () => {
  const run = spawnSync(process.execPath, ['server.ts'], {
    cwd: root,
    env: { ...process.env, PORT: 'abc', ANSWER_CACHE_BYTES: '-1' },
    encoding: 'utf8',
  });
  assert.equal(run.status, 2, run.stderr);
  assert.match(run.stderr, /PORT must be a whole number from 0 to 65535; got "abc"/);
  assert.match(run.stderr, /ANSWER_CACHE_BYTES must be a whole number/);
  assert.doesNotMatch(run.stderr, /\n\s+at /, 'a message, not a stack');
});

/** The numeric variables and the range each accepts. */
const NUMERIC: [VariableName, number, number][] = [
  ['PORT', 0, 65535],
  ['IDP_PORT', 0, 65535],
  ['ANSWER_CACHE_BYTES', 0, Number.MAX_SAFE_INTEGER],
  ['PAGE_CACHE_BYTES', 0, Number.MAX_SAFE_INTEGER],
  ['RATE_LIMIT_REQUESTS', 1, Number.MAX_SAFE_INTEGER],
  ['SQL_RATE_LIMIT_REQUESTS', 1, Number.MAX_SAFE_INTEGER],
  ['GRAPHQL_COST_BUDGET', 1, Number.MAX_SAFE_INTEGER],
  ['MCP_RATE_LIMIT_REQUESTS', 1, Number.MAX_SAFE_INTEGER],
  ['MCP_TOOL_WORK_BUDGET', 1, Number.MAX_SAFE_INTEGER],
  ['RPC_SESSION_LIMIT', 1, Number.MAX_SAFE_INTEGER],
  ['REPLICAS', 1, 1000],
];

test('property: a numeric variable takes every whole number in its range, written in digits, and nothing else', () => {
  const variable = fc.constantFrom(...NUMERIC);
  fc.assert(
    fc.property(variable, fc.maxSafeNat(), ([name, min, max], x) => {
      const n = min + (x % (max - min + 1));
      assert.equal(readConfig({ [name]: String(n) })[name], n);
    }),
  );
  // Below every range, fractions, exponents and the like, and past the largest safe integer.
  const notInRange = fc.oneof(fc.integer({ min: -1e9, max: -1 }), fc.double({ noInteger: true }), fc.constant(Number.MAX_SAFE_INTEGER + 2));
  fc.assert(
    fc.property(variable, notInRange, ([name, min, max], x) => {
      assert.match(refusal({ [name]: String(x) }), new RegExp(`^Configuration: ${name} must be a whole number from ${min} to ${max}; got `));
    }),
  );
  fc.assert(
    fc.property(
      variable,
      fc.string({ minLength: 1 }).filter((s) => s.trim() !== '' && !/^\s*\d+\s*$/.test(s)),
      ([name], raw) => {
        assert.match(refusal({ [name]: raw }), new RegExp(`${name} must be a whole number`));
      },
    ),
  );
});

test('property: wholeNumber(min, max) is the identity on its range and refuses just outside it', () => {
  fc.assert(
    fc.property(fc.nat({ max: 1e12 }), fc.nat({ max: 1e12 }), (a, b) => {
      const [min, max] = a <= b ? [a, b] : [b, a];
      const parse = wholeNumber(min, max);
      assert.equal(parse(String(min)), min);
      assert.equal(parse(String(max)), max);
      assert.equal(parse(` ${max} `), max, 'surrounding blanks are forgiven');
      assert.throws(() => parse(String(max + 1)), RangeError);
      if (min > 0) assert.throws(() => parse(String(min - 1)), RangeError);
    }),
  );
});
