/**
 * The import rules of the repository, in one table: which folders may not import which. Paths are
 * repo-relative, without file extension; a rule's `from`/`to` entry names a folder (everything under it) or
 * a module. `scan.ts` reads the imports; `import-rules.test.ts` checks the whole tree against this table.
 */
export interface ImportRule {
  /** Shown with every violation: the rule and why it exists. */
  name: string;
  /** The importing files the rule applies to. */
  from: string[];
  /** What they must not import. */
  to: string[];
  /** Allowed edges inside `to`, each with its reason: [importing file or folder, imported module or folder]. */
  except?: { from: string; to: string; why: string }[];
}

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ANALYSIS_TYPES } from '../contracts/src/analysis/common.ts';
import { REPO_ROOT } from './scan.ts';

const ENGINE = 'engine/fieldline_engine';
const FAMILIES = ['em', 'thermal', 'structural', 'vibration'] as const;
const family = (f: string) => `${ENGINE}/${f}`;

/** The environment's code shared by every family; only families/<id>/ folders name a family. */
export const WEB_ENVIRONMENT = 'web/src/environment';
export const WEB_FAMILIES = `${WEB_ENVIRONMENT}/families`;
/** The web's family folders, found as families/registry.ts finds them: each folder with an index.ts. */
export const WEB_FAMILY_DIRS: string[] = readdirSync(join(REPO_ROOT, WEB_FAMILIES), { withFileTypes: true })
  .filter((e) => e.isDirectory() && readdirSync(join(REPO_ROOT, WEB_FAMILIES, e.name)).includes('index.ts'))
  .map((e) => `${WEB_FAMILIES}/${e.name}`)
  .sort();

export const IMPORT_RULES: ImportRule[] = [
  // --- web ---
  { name: 'web does not import the server', from: ['web'], to: ['server'] },
  {
    name: 'shared environment code imports no family folder: families/registry.ts finds them (docs/multiphysics.md §5)',
    from: [WEB_ENVIRONMENT],
    to: WEB_FAMILY_DIRS,
    except: WEB_FAMILY_DIRS.map((f) => ({
      from: f,
      to: WEB_FAMILIES,
      why: "a family may compose another family's groups and mappings (vibration shows structural's supports)",
    })),
  },
  {
    name: 'the viewer page talks to the environment by messages only (contracts/src/viewer-protocol.ts)',
    from: ['web/src/viewer'],
    to: ['web/src/environment', 'web/src/auth', 'web/src/billing', 'web/src/dashboard', 'web/src/pages'],
  },
  {
    name: 'the environment talks to the viewer page by messages only (contracts/src/viewer-protocol.ts)',
    from: ['web/src/environment'],
    to: ['web/src/viewer'],
  },
  // --- contracts ---
  {
    name: 'contracts import nothing of ours',
    from: ['contracts/src'],
    to: ['server', 'web', 'engine', 'e2e', 'bench', 'scripts'],
  },
  // --- server (the domain rules) ---
  { name: 'accounts do not import jobs', from: ['server/src/accounts'], to: ['server/src/jobs'] },
  {
    // Jobs charge through their own JobMetering interface; billing's Metering is wired in src/compute.ts.
    name: 'jobs import no billing, admin or geometry',
    from: ['server/src/jobs'],
    to: ['server/src/billing', 'server/src/admin', 'server/src/geometry'],
  },
  // --- engine ---
  {
    name: 'physics-neutral engine code (core/, post/, mesh/, io/, geometry/, commands/) imports no physics family',
    from: ['core', 'post', 'mesh', 'io', 'geometry', 'commands'].map((d) => `${ENGINE}/${d}`),
    to: FAMILIES.map(family),
  },
  // One family imports no other. A result crosses as a Solution from the registry (thermal's Joule heating asks
  // core/registry for the `em` analysis); what two families share lives in core/ (core/elasticity/ for
  // structural and vibration). No exceptions.
  ...FAMILIES.map(
    (f): ImportRule => ({
      name: `the ${f} family imports no other family (results cross as a Solution from the registry)`,
      from: [family(f)],
      to: FAMILIES.filter((other) => other !== f).map(family),
    }),
  ),
  {
    name: 'engine test seams (testing/) stay out of the production engine',
    from: [ENGINE],
    to: [`${ENGINE}/testing`],
    except: [{ from: `${ENGINE}/testing`, to: `${ENGINE}/testing`, why: 'the seams use each other' }],
  },
];

/**
 * A string a file must not contain as a literal ('…', "…" or `…`), with the folders where it may. No shared
 * environment file names a family by its id or one of its analysis types: what the shared code needs of a
 * family it asks the registry (families/registry.ts).
 */
export interface LiteralRule {
  name: string;
  from: string[];
  /** folders under `from` the rule leaves out */
  except: string[];
  literals: readonly string[];
}

const familyIds = WEB_FAMILY_DIRS.map((d) => d.slice(WEB_FAMILIES.length + 1));

export const LITERAL_RULES: LiteralRule[] = [
  {
    name: 'shared environment code names no family: no family id or analysis type as a string (ask families/registry.ts)',
    from: [WEB_ENVIRONMENT],
    except: WEB_FAMILY_DIRS,
    // tetra-only is the meshing job's type, no family's
    literals: [...new Set([...familyIds, ...ANALYSIS_TYPES.filter((t) => t !== 'tetra-only')])],
  },
];
