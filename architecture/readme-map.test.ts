import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './scan.ts';

/**
 * The README's architecture map stays true: every path it names exists, every folder of the server, web and
 * engine sources is in its bullet, and it fits one screen.
 */
const ONE_SCREEN = 50;
/** The map's bullets that describe a source tree: each must name every folder directly under it. */
const TREES = ['server/src/', 'web/src/', 'engine/fieldline_engine/'];
/** Where a path the map names from inside its parent (`http/` (`route.ts`)) is looked for. */
const SOURCE_ROOTS = ['server/src', 'web/src', 'engine/fieldline_engine', 'contracts/src', 'architecture'];
const SKIP = new Set(['node_modules', 'dist', '__pycache__', 'out', 'coverage', 'data']);
/** Built artefacts and placeholders the map names but the repository does not hold. */
const NOT_IN_REPO = /(^|\/)dist\/|[<>{}*]/;

function architectureSection(readme: string): string {
  const start = readme.indexOf('\n## Architecture\n');
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start + 1, end === -1 ? undefined : end);
}

/** Backticked names and the code block's words that look like paths (`a/b`, `x.py`, `y.ts`). */
function namedPaths(section: string): string[] {
  const ticked = [...section.matchAll(/`([^`\s]+)`/g)].map((m) => m[1] ?? '');
  const block = section.match(/```\n([\s\S]*?)```/)?.[1] ?? '';
  const words = block.split(/[\s(),;:·|→]+/);
  return [...new Set([...ticked, ...words])]
    .map((p) => p.replace(/[.,]$/, ''))
    .filter((p) => /^[\w.-]+(\/[\w.-]*)*$/.test(p) && (p.includes('/') || /\.(ts|tsx|py|mjs|html)$/.test(p)))
    .filter((p) => !NOT_IN_REPO.test(p));
}

/** Every file and folder under the source roots (repo-relative; folders end in /). */
function indexPaths(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const d of readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })) {
      if (d.name.startsWith('.') || SKIP.has(d.name)) continue;
      const path = `${dir}/${d.name}`;
      out.push(d.isDirectory() ? `${path}/` : path);
      if (d.isDirectory()) walk(path);
    }
  };
  for (const root of SOURCE_ROOTS) walk(root);
  return out;
}

/** The named paths that exist neither from the repository root nor inside a source root (the map names
 * some from their parent: `http/` (`route.ts`)). Module names may leave out the extension (`core/registry`). */
function stalePaths(section: string, index: string[]): string[] {
  const exists = (path: string) => {
    const names = /\.\w+$|\/$/.test(path) ? [path] : [path, `${path}.py`, `${path}.ts`, `${path}/`];
    return names.some((n) => existsSync(join(REPO_ROOT, n)) || index.some((p) => p.endsWith(`/${n}`)));
  };
  return namedPaths(section).filter((path) => !exists(path));
}

/** Folders directly under `tree` that its bullet does not name as `folder/…`. */
function unnamedFolders(section: string, tree: string): string[] {
  const bullet = section.split('\n- ').find((b) => b.startsWith(`\`${tree}\``)) ?? '';
  return readdirSync(join(REPO_ROOT, tree), { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('.') && !d.name.startsWith('__'))
    .filter((d) => !bullet.includes(`\`${d.name}/`))
    .map((d) => `${tree}${d.name}/`);
}

describe("the README's architecture map", () => {
  const section = architectureSection(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'));
  const index = indexPaths();

  it('fits one screen', () => {
    const lines = section.trimEnd().split('\n').length;
    console.log(`README architecture section: ${lines} lines (one screen: ${ONE_SCREEN})`);
    expect(lines).toBeLessThanOrEqual(ONE_SCREEN);
  });

  it('names only paths that exist', () => {
    console.log(`README architecture section names ${namedPaths(section).length} paths`);
    expect(stalePaths(section, index)).toEqual([]);
  });

  it('names every folder of the server, web and engine sources in its bullet', () => {
    expect(TREES.flatMap((tree) => unnamedFolders(section, tree))).toEqual([]);
  });

  it('fails on a map that drifted: a moved module, an old file, a renamed or missing folder', () => {
    const drifted = section
      .replace('`core/elasticity/`', '`structural/setup.py`')
      .replace('`route.ts`', '`jobs/compute-routes.ts`')
      .replace('`results-format/`', '`results/`')
      .replace('`materials/`,', '');
    expect(stalePaths(drifted, index).sort()).toEqual(['jobs/compute-routes.ts', 'structural/setup.py']);
    expect(unnamedFolders(drifted, 'web/src/')).toEqual(['web/src/results-format/']);
    expect(unnamedFolders(drifted, 'server/src/')).toEqual(['server/src/materials/']);
  });
});
