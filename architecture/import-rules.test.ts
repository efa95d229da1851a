import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IMPORT_RULES, LITERAL_RULES, WEB_FAMILY_DIRS } from './import-rules.ts';
import {
  checkLiterals,
  checkSource,
  checkTree,
  checkTreeLiterals,
  formatLiteral,
  formatViolation,
  importsOf,
  REPO_ROOT,
} from './scan.ts';

describe('import rules (architecture/import-rules.ts)', () => {
  it('the repository breaks none of them', () => {
    const violations = checkTree(IMPORT_RULES, REPO_ROOT).map(formatViolation);
    expect(violations, violations.join('\n')).toEqual([]);
    const named = checkTreeLiterals(LITERAL_RULES, REPO_ROOT).map(formatLiteral);
    expect(named, named.join('\n')).toEqual([]);
  });

  it('finds the web family folders as the registry does (each with an index.ts)', () => {
    expect(WEB_FAMILY_DIRS).toEqual(
      expect.arrayContaining(
        ['em', 'thermal', 'structural', 'vibration'].map((f) => `web/src/environment/families/${f}`),
      ),
    );
  });

  it('catches a shared environment file that names a family, by import or by string', () => {
    const shared = 'web/src/environment/results/planted.tsx';
    expect(
      checkSource(
        IMPORT_RULES,
        shared,
        "import { HeatFlows } from '../families/thermal/results/HeatFlows.tsx';",
      ).map(formatViolation),
    ).toEqual([
      'web/src/environment/results/planted.tsx imports web/src/environment/families/thermal/results/HeatFlows — breaks "shared environment code imports no family folder: families/registry.ts finds them (docs/multiphysics.md §5)"',
    ]);
    expect(
      checkLiterals(
        LITERAL_RULES,
        shared,
        'const a = 1;\nif (config.analysisType === \'thermal-time\') show();\nconst f = "vibration";',
      ).map(formatLiteral),
    ).toEqual([
      `web/src/environment/results/planted.tsx:2 names 'thermal-time' — breaks "shared environment code names no family: no family id or analysis type as a string (ask families/registry.ts)"`,
      `web/src/environment/results/planted.tsx:3 names 'vibration' — breaks "shared environment code names no family: no family id or analysis type as a string (ask families/registry.ts)"`,
    ]);
    // the registry and the FamilyModule interface are shared, not a family; a family may name itself and compose
    // another; words that merely contain a family's name are not its name
    expect(checkSource(IMPORT_RULES, shared, "import { families } from '../families/registry.ts';")).toEqual(
      [],
    );
    expect(
      checkSource(
        IMPORT_RULES,
        'web/src/environment/families/vibration/planted.ts',
        "import { SUPPORT_FACES } from '../structural/index.ts';",
      ),
    ).toEqual([]);
    expect(
      checkLiterals(
        LITERAL_RULES,
        'web/src/environment/families/thermal/planted.ts',
        "const t = 'thermal-time';",
      ),
    ).toEqual([]);
    expect(
      checkLiterals(
        LITERAL_RULES,
        shared,
        "const k = 'thermalConductivity'; const m = 'modal S'; // em dash",
      ),
    ).toEqual([]);
  });

  it('reads the imports of TypeScript and Python sources', () => {
    const ts = [
      "import { a } from '../../../server/src/app.ts';",
      "import type {\n  B,\n  C,\n} from './b.ts';",
      "export * from '../lib/index.ts';",
      "import '@fieldline/contracts';",
      "const m = await import('../dyn.tsx');",
      "import { z } from 'zod';",
    ].join('\n');
    expect(importsOf('web/src/env/x.ts', ts)).toEqual([
      'server/src/app',
      'web/src/env/b',
      'web/src/lib',
      'contracts/src',
      'web/src/dyn',
    ]);
    const py = [
      'import numpy as np',
      'from fieldline_engine import protocol',
      'from fieldline_engine.em.constants import (\n    EPS0,\n    MU0,\n)',
      '    import fieldline_engine.thermal.heat',
      'from .sibling import thing',
      'from .. import errors',
    ].join('\n');
    expect(new Set(importsOf('engine/fieldline_engine/post/x.py', py))).toEqual(
      new Set([
        'engine/fieldline_engine/protocol',
        'engine/fieldline_engine',
        'engine/fieldline_engine/em/constants/EPS0',
        'engine/fieldline_engine/em/constants/MU0',
        'engine/fieldline_engine/em/constants',
        'engine/fieldline_engine/thermal/heat',
        'engine/fieldline_engine/post/sibling/thing',
        'engine/fieldline_engine/post/sibling',
        'engine/fieldline_engine/errors',
      ]),
    );
  });

  it('catches a planted forbidden import in memory, naming the file, the import and the rule', () => {
    const planted = [
      checkSource(
        IMPORT_RULES,
        'web/src/environment/planted.ts',
        "import { x } from '../../../server/src/app.ts';",
      ),
      checkSource(
        IMPORT_RULES,
        'web/src/viewer/planted.ts',
        "import { y } from '../environment/EnvironmentPage.tsx';",
      ),
      checkSource(IMPORT_RULES, 'contracts/src/planted.ts', "import { z } from '../../web/src/site.ts';"),
      checkSource(
        IMPORT_RULES,
        'server/src/accounts/planted.ts',
        "import { j } from '../jobs/job-service.ts';",
      ),
      checkSource(IMPORT_RULES, 'server/src/jobs/planted.ts', "import { m } from '../billing/metering.ts';"),
      checkSource(
        IMPORT_RULES,
        'engine/fieldline_engine/post/planted.py',
        'from fieldline_engine.em.constants import EPS0',
      ),
      checkSource(
        IMPORT_RULES,
        'engine/fieldline_engine/core/elasticity/planted.py',
        'from fieldline_engine.structural.static import solve_static',
      ),
      checkSource(
        IMPORT_RULES,
        'engine/fieldline_engine/thermal/planted.py',
        'from fieldline_engine.em import conduction',
      ),
      // Joule heating gets EM's Solution from the registry; importing EM's analysis class is refused too.
      checkSource(
        IMPORT_RULES,
        'engine/fieldline_engine/thermal/joule.py',
        'from fieldline_engine.em.em_analyses import EmAnalysis',
      ),
      // Vibration shares structural's elasticity through core/elasticity/, never by importing structural.
      checkSource(
        IMPORT_RULES,
        'engine/fieldline_engine/vibration/modal.py',
        'from fieldline_engine.structural.static import component_dirichlet',
      ),
      checkSource(
        IMPORT_RULES,
        'engine/fieldline_engine/commands/planted.py',
        'from fieldline_engine.testing import hooks',
      ),
    ].map((found) => found.map(formatViolation));
    expect(planted).toEqual([
      ['web/src/environment/planted.ts imports server/src/app — breaks "web does not import the server"'],
      [
        'web/src/viewer/planted.ts imports web/src/environment/EnvironmentPage — breaks "the viewer page talks to the environment by messages only (contracts/src/viewer-protocol.ts)"',
      ],
      ['contracts/src/planted.ts imports web/src/site — breaks "contracts import nothing of ours"'],
      [
        'server/src/accounts/planted.ts imports server/src/jobs/job-service — breaks "accounts do not import jobs"',
      ],
      [
        'server/src/jobs/planted.ts imports server/src/billing/metering — breaks "jobs import no billing, admin or geometry"',
      ],
      [
        'engine/fieldline_engine/post/planted.py imports engine/fieldline_engine/em/constants/EPS0 — breaks "physics-neutral engine code (core/, post/, mesh/, io/, geometry/, commands/) imports no physics family"',
        'engine/fieldline_engine/post/planted.py imports engine/fieldline_engine/em/constants — breaks "physics-neutral engine code (core/, post/, mesh/, io/, geometry/, commands/) imports no physics family"',
      ],
      [
        'engine/fieldline_engine/core/elasticity/planted.py imports engine/fieldline_engine/structural/static/solve_static — breaks "physics-neutral engine code (core/, post/, mesh/, io/, geometry/, commands/) imports no physics family"',
        'engine/fieldline_engine/core/elasticity/planted.py imports engine/fieldline_engine/structural/static — breaks "physics-neutral engine code (core/, post/, mesh/, io/, geometry/, commands/) imports no physics family"',
      ],
      [
        'engine/fieldline_engine/thermal/planted.py imports engine/fieldline_engine/em/conduction — breaks "the thermal family imports no other family (results cross as a Solution from the registry)"',
        'engine/fieldline_engine/thermal/planted.py imports engine/fieldline_engine/em — breaks "the thermal family imports no other family (results cross as a Solution from the registry)"',
      ],
      [
        'engine/fieldline_engine/thermal/joule.py imports engine/fieldline_engine/em/em_analyses/EmAnalysis — breaks "the thermal family imports no other family (results cross as a Solution from the registry)"',
        'engine/fieldline_engine/thermal/joule.py imports engine/fieldline_engine/em/em_analyses — breaks "the thermal family imports no other family (results cross as a Solution from the registry)"',
      ],
      [
        'engine/fieldline_engine/vibration/modal.py imports engine/fieldline_engine/structural/static/component_dirichlet — breaks "the vibration family imports no other family (results cross as a Solution from the registry)"',
        'engine/fieldline_engine/vibration/modal.py imports engine/fieldline_engine/structural/static — breaks "the vibration family imports no other family (results cross as a Solution from the registry)"',
      ],
      [
        'engine/fieldline_engine/commands/planted.py imports engine/fieldline_engine/testing/hooks — breaks "engine test seams (testing/) stay out of the production engine"',
        'engine/fieldline_engine/commands/planted.py imports engine/fieldline_engine/testing — breaks "engine test seams (testing/) stay out of the production engine"',
      ],
    ]);
    // What the families share is allowed: core/elasticity/ and the registry.
    expect(
      checkSource(
        IMPORT_RULES,
        'engine/fieldline_engine/vibration/modal.py',
        'from fieldline_engine.core.elasticity.operator import Elasticity\nfrom fieldline_engine.core.registry import analysis_for',
      ),
    ).toEqual([]);
  });

  const tree = mkdtempSync(join(tmpdir(), 'import-rules-'));
  afterAll(() => rmSync(tree, { recursive: true, force: true }));

  it('catches a planted forbidden import in a file on disk (the tree walk finds it)', () => {
    const plant = (path: string, text: string) => {
      mkdirSync(join(tree, dirname(path)), { recursive: true });
      writeFileSync(join(tree, path), text);
    };
    plant('web/src/billing/planted.tsx', "import { buildApp } from '../../../server/src/app.ts';\n");
    plant('web/node_modules/x/index.ts', "import '../../../server/src/app.ts';\n"); // skipped: not our source
    plant(
      'web/src/environment/run/planted.ts',
      "import em from '../families/em/index.ts';\nconst t = 'em-eigen';\n",
    );
    plant(
      'engine/fieldline_engine/core/planted.py',
      'def f():\n    from fieldline_engine.vibration.modal import solve_modes\n',
    );
    expect(checkTree(IMPORT_RULES, tree).map(formatViolation)).toEqual([
      'engine/fieldline_engine/core/planted.py imports engine/fieldline_engine/vibration/modal/solve_modes — breaks "physics-neutral engine code (core/, post/, mesh/, io/, geometry/, commands/) imports no physics family"',
      'engine/fieldline_engine/core/planted.py imports engine/fieldline_engine/vibration/modal — breaks "physics-neutral engine code (core/, post/, mesh/, io/, geometry/, commands/) imports no physics family"',
      'web/src/billing/planted.tsx imports server/src/app — breaks "web does not import the server"',
      'web/src/environment/run/planted.ts imports web/src/environment/families/em — breaks "shared environment code imports no family folder: families/registry.ts finds them (docs/multiphysics.md §5)"',
    ]);
    expect(checkTreeLiterals(LITERAL_RULES, tree).map(formatLiteral)).toEqual([
      `web/src/environment/run/planted.ts:2 names 'em-eigen' — breaks "shared environment code names no family: no family id or analysis type as a string (ask families/registry.ts)"`,
    ]);
  });
});
