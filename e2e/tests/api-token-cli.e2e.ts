import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { registerApiUser } from '../support/api-user.ts';
import { installPythonClient, run } from '../support/python-client.ts';
import { REPO_ROOT } from '../support/server.ts';
import { serverAndBrowser } from '../support/stand.ts';

// Issue 38, done when: a new user creates a token on the dashboard (Chromium), installs the client in a
// fresh virtual environment, runs `fieldline run` on a STEP part and opens the VTU with meshio.
const stand = serverAndBrowser();
const work = mkdtempSync(join(tmpdir(), 'fieldline-cli-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const sh = (cmd: string, args: string[], env: Record<string, string> = {}) => run(work, cmd, args, env);

it('dashboard token → pip install ./clients/python → fieldline run on a STEP part → meshio reads the VTU', async () => {
  const origin = stand.server.origin;
  const cookie = await registerApiUser(origin);
  const [name, value] = cookie.split('=') as [string, string];
  const context = await stand.browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name, value, url: origin }]);
  const page = await context.newPage();
  await page.goto(`${origin}/#/dashboard`);
  await page.getByRole('heading', { name: 'API tokens' }).waitFor();
  await page.getByLabel('Token name').fill('laptop');
  await page.getByLabel('Token scope').selectOption('run');
  await page.getByLabel('Token expiry').selectOption('30');
  await page.getByRole('button', { name: 'Create token' }).click();
  const token = (await page.getByTestId('token-secret').textContent())?.trim() ?? '';
  expect(token).toMatch(/^fl_[A-Za-z0-9_-]{43}$/);
  await expect.poll(() => page.getByTestId('api-token-row').count()).toBe(1);
  await context.close();

  // A STEP part: a 100 × 10 × 10 mm bar (gmsh, in the engine's environment).
  const step = join(work, 'bar.step');
  sh(join(REPO_ROOT, '.venv/bin/python'), [
    '-c',
    `import gmsh, sys
gmsh.initialize(); gmsh.option.setNumber('General.Terminal', 0)
gmsh.option.setString('Geometry.OCCTargetUnit', 'MM')
gmsh.model.occ.addBox(0, 0, 0, 100, 10, 10); gmsh.model.occ.synchronize()
gmsh.write(sys.argv[1]); gmsh.finalize()`,
    step,
  ]);
  // Face ids of the two end faces come from a mesh of the part (as the browser's face picker would give).
  const venv = installPythonClient(work);
  const env = { FIELDLINE_URL: origin, FIELDLINE_TOKEN: token };
  const setup = JSON.parse(
    sh(
      venv('python'),
      [
        '-c',
        `import json
from fieldline import Client
with Client() as fl:
    mesh = fl.mesh(fl.upload("bar.step"), max_size=5, progress=False)
print(json.dumps({"mesh": {"max_size": 5}, "config": {
    "bodyMaterials": [{"region": 0, "material": "steel"}],
    "fixedSupports": [{"faces": mesh.faces_on_plane("x", 0), "name": "wall"}],
    "forceLoads": [{"faces": mesh.faces_on_plane("x", 100), "force": [0, 0, -100]}]}}))`,
      ],
      env,
    ),
  );
  writeFileSync(join(work, 'setup.json'), JSON.stringify(setup));
  const out = sh(
    venv('fieldline'),
    [
      'run',
      'bar.step',
      '--physics',
      'structural',
      '--config',
      'setup.json',
      '--out',
      'results',
      '--no-progress',
    ],
    env,
  );
  expect(JSON.parse(out.trim().split('\n').at(-1) ?? '{}').files).toContain('results/results.vtu');
  const read = sh(venv('python'), [
    '-c',
    `import meshio
m = meshio.read("results/results.vtu")
print(len(m.cells_dict["tetra"]), float(abs(m.point_data["displacement"][:, 2]).max()), "von_mises" in m.point_data or "von_mises" in m.cell_data)`,
  ]).trim();
  const [tets, maxDisplacement, hasStress] = read.split(' ');
  console.log(
    `VTU read by meshio: ${tets} tetrahedra, max |u_z| ${maxDisplacement} m, von_mises: ${hasStress}`,
  );
  expect(Number(tets)).toBeGreaterThan(100);
  expect(Number(maxDisplacement)).toBeGreaterThan(0);
  expect(hasStress).toBe('True');
});
