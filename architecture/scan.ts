/** Reads the imports of TypeScript and Python sources and checks them against the rules (import-rules.ts). */
import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import type { ImportRule, LiteralRule } from './import-rules.ts';

const SKIP_DIRS = new Set(['node_modules', 'dist', '.venv', '__pycache__', 'out', 'coverage', 'data']);
const SOURCE = /\.(ts|tsx|mts|js|mjs|py)$/;

/** A folder or module path matches `prefix` when it is the prefix or lies under it. */
const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

const stripModule = (p: string) =>
  p.replace(/\.(ts|tsx|mts|js|mjs|py)$/, '').replace(/\/(index|__init__)$/, '');

// import … from '…' / export … from '…' (also across lines), import '…', import('…').
const TS_IMPORT =
  /(?:^|[;\s])(?:import|export)\s+(?:type\s+)?(?:[\w*${},\s]+?\s+from\s+)?['"]([^'"\n]+)['"]/g;
const TS_DYNAMIC = /\bimport\(\s*['"]([^'"\n]+)['"]\s*\)/g;
// from a.b import x, y / from . import (x, y) / import a.b, c
const PY_FROM = /^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]+)/gm;
const PY_IMPORT = /^[ \t]*import[ \t]+([\w., \t]+)/gm;

/** Repo-relative module paths (no extension) that the file at `file` imports; packages outside ours are left out. */
export function importsOf(file: string, source: string): string[] {
  return file.endsWith('.py') ? pythonImports(file, source) : tsImports(file, source);
}

function tsImports(file: string, source: string): string[] {
  const specs = [...source.matchAll(TS_IMPORT), ...source.matchAll(TS_DYNAMIC)].map((m) => m[1] ?? '');
  const out: string[] = [];
  for (const spec of specs) {
    if (spec.startsWith('.')) out.push(stripModule(posix.join(posix.dirname(file), spec)));
    else if (spec.startsWith('@fieldline/')) {
      const [workspace, ...rest] = spec.slice('@fieldline/'.length).split('/');
      out.push(rest.length ? `${workspace}/${rest.join('/')}` : `${workspace}/src`);
    }
  }
  return out;
}

function pythonImports(file: string, source: string): string[] {
  const out: string[] = [];
  const add = (module: string) => {
    const path = pythonModulePath(file, module);
    if (path) out.push(path);
  };
  for (const m of source.matchAll(PY_FROM)) {
    const module = m[1] ?? '';
    const names = (m[2] ?? '').replace(/[()]/g, '').split(',');
    for (const name of names) {
      const bare = name.trim().split(/\s+/)[0];
      if (bare && bare !== '*') add(module.endsWith('.') ? `${module}${bare}` : `${module}.${bare}`);
    }
    add(module);
  }
  for (const m of source.matchAll(PY_IMPORT)) {
    for (const name of (m[1] ?? '').split(',')) add(name.trim().split(/\s+/)[0] ?? '');
  }
  return out;
}

/** `fieldline_engine.a.b` → engine/fieldline_engine/a/b; relative modules resolve against the file's package. */
function pythonModulePath(file: string, module: string): string | null {
  const dots = /^\.*/.exec(module)?.[0].length ?? 0;
  const rest = module.slice(dots).split('.').filter(Boolean);
  if (dots > 0) {
    let pkg = posix.dirname(file);
    for (let i = 1; i < dots; i++) pkg = posix.dirname(pkg);
    return [pkg, ...rest].join('/');
  }
  if (rest[0] !== 'fieldline_engine') return null;
  return ['engine', ...rest].join('/');
}

export interface Violation {
  file: string;
  imports: string;
  rule: string;
}

/** The violations of `rules` by one source file (repo-relative path, its text). */
export function checkSource(rules: ImportRule[], file: string, source: string): Violation[] {
  const self = stripModule(file);
  const found: Violation[] = [];
  for (const rule of rules) {
    if (!rule.from.some((f) => under(self, f))) continue;
    for (const target of new Set(importsOf(file, source))) {
      if (!rule.to.some((t) => under(target, t))) continue;
      if (rule.except?.some((e) => under(self, e.from) && under(target, e.to))) continue;
      found.push({ file, imports: target, rule: rule.name });
    }
  }
  return found;
}

/** Every source file under the rules' `from` folders of the tree at `root`, checked. */
export function checkTree(rules: ImportRule[], root: string): Violation[] {
  const roots = new Set(rules.flatMap((r) => r.from));
  const files = new Set<string>();
  for (const r of roots) for (const f of sourceFiles(root, r)) files.add(f);
  return [...files].sort().flatMap((f) => checkSource(rules, f, readFileSync(join(root, f), 'utf8')));
}

function sourceFiles(root: string, dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return SOURCE.test(dir) ? [dir] : []; // a module named by path, or a folder that does not exist
  }
  return entries.flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory())
      return SKIP_DIRS.has(e.name) || e.name.startsWith('.') ? [] : sourceFiles(root, path);
    return SOURCE.test(e.name) ? [path] : [];
  });
}

export const formatViolation = (v: Violation) => `${v.file} imports ${v.imports} — breaks "${v.rule}"`;

/** The repository root (this folder's parent). */
export const REPO_ROOT = dirname(import.meta.dirname);

export interface LiteralViolation {
  file: string;
  line: number;
  literal: string;
  rule: string;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The string literals of `rules` one TypeScript source file contains where it must not (repo-relative path). */
export function checkLiterals(rules: LiteralRule[], file: string, source: string): LiteralViolation[] {
  if (file.endsWith('.py')) return [];
  const self = stripModule(file);
  const found: LiteralViolation[] = [];
  for (const rule of rules) {
    if (!rule.from.some((f) => under(self, f)) || rule.except.some((e) => under(self, e))) continue;
    const pattern = new RegExp(`(['"\`])(${rule.literals.map(escapeRegExp).join('|')})\\1`, 'g');
    for (const m of source.matchAll(pattern)) {
      const line = source.slice(0, m.index).split('\n').length;
      found.push({ file, line, literal: m[2] ?? '', rule: rule.name });
    }
  }
  return found;
}

/** Every source file under the literal rules' `from` folders of the tree at `root`, checked. */
export function checkTreeLiterals(rules: LiteralRule[], root: string): LiteralViolation[] {
  const files = new Set<string>();
  for (const r of new Set(rules.flatMap((rule) => rule.from)))
    for (const f of sourceFiles(root, r)) files.add(f);
  return [...files].sort().flatMap((f) => checkLiterals(rules, f, readFileSync(join(root, f), 'utf8')));
}

export const formatLiteral = (v: LiteralViolation) =>
  `${v.file}:${v.line} names '${v.literal}' — breaks "${v.rule}"`;
