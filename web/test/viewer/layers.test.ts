import { SPEC_STREAMLINE_FIELDS, type ViewerField, type ViewerMesh } from '@fieldline/contracts';
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { FieldState } from '../../src/viewer/field-state.ts';
import type { AnimationLayer } from '../../src/viewer/layers/animation-layer.ts';
import { runCommand } from '../../src/viewer/layers/commands.ts';
import { DeformationLayer } from '../../src/viewer/layers/deformation-layer.ts';
import { buildLayers } from '../../src/viewer/layers/index.ts';
import type { ModelLayer } from '../../src/viewer/layers/model-layer.ts';
import { ProblemsLayer } from '../../src/viewer/layers/problems-layer.ts';
import { fakeContext } from './layer-harness.ts';

// A tetrahedron: four vertices, its four faces, one cell. Field names are arbitrary on purpose: the
// viewer knows fields only by their catalogue entry (kind, role, unit, label).
const positions = () => new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
const triangles = () => new Uint32Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]);
const heat: ViewerField = {
  label: 'Heat',
  unit: 'K',
  kind: 'scalar',
  location: 'vertex',
  values: new Float32Array([300, 310, 320, 330]),
};
const warp: ViewerField = {
  label: 'Warp',
  unit: 'm',
  kind: 'vector',
  location: 'vertex',
  role: 'deformation',
  values: new Float32Array([0, 0, 0, 0.001, 0, 0, 0, 0.002, 0, 0, 0, -0.001]),
};

function mesh(units = 'mm'): ViewerMesh {
  return {
    positions: positions(),
    triangles: triangles(),
    tetrahedra: new Uint32Array([0, 1, 2, 3]),
    units,
    bodies: [],
  } as unknown as ViewerMesh;
}

describe('ProblemsLayer alone', () => {
  function setup() {
    const h = fakeContext();
    const geometry = new THREE.BufferGeometry();
    const p = positions();
    geometry.setAttribute('position', new THREE.BufferAttribute(p, 3));
    h.ctx.layers.model = {
      model: { mesh: { positions: p, triangles: triangles() }, surfaceGeometry: geometry },
    } as unknown as ModelLayer;
    return { ...h, problems: new ProblemsLayer(h.ctx) };
  }

  it('draws bad faces and vertices over the model and lists the messages', () => {
    const { ctx, problems, container } = setup();
    problems.show({
      vertices: new Uint32Array([3]),
      faces: new Uint32Array([1, 99]),
      messages: ['self-intersection'],
    });
    expect(problems.shown).toBe(true);
    const group = ctx.overlays.children[0] as THREE.Group;
    const faces = group.children.find((c) => c instanceof THREE.Mesh) as THREE.Mesh;
    const dots = group.children.find((c) => c instanceof THREE.Points) as THREE.Points;
    // Face 1's corners; face 99 is out of range and skipped.
    expect(Array.from(faces.geometry.getIndex()!.array)).toEqual([0, 1, 3]);
    expect(Array.from(dots.geometry.getAttribute('position').array)).toEqual([0, 0, 1]);
    const box = container.querySelector('.fl-problems') as HTMLDivElement;
    expect(box.textContent).toBe('2 problem faces, 1 problem vertex\nself-intersection');
    expect(box.style.display).toBe('block');
  });

  it('clears its markers and hides the box; nothing without a model', () => {
    const { ctx, problems, container } = setup();
    problems.show({ vertices: new Uint32Array([0]), faces: new Uint32Array(0), messages: [] });
    problems.clear();
    expect(ctx.overlays.children).toHaveLength(0);
    expect((container.querySelector('.fl-problems') as HTMLDivElement).style.display).toBe('none');
    ctx.layers.model = { model: null } as unknown as ModelLayer;
    problems.show({ vertices: new Uint32Array([0]), faces: new Uint32Array([0]), messages: [] });
    expect(problems.shown).toBe(false);
  });
});

describe('DeformationLayer alone', () => {
  function setup(units = 'mm') {
    const h = fakeContext();
    const deformation = new DeformationLayer(h.ctx);
    const animation = { frame: 0 };
    h.ctx.layers.model = {
      fields: new FieldState({ heat, warp }, undefined, 4),
      model: { mesh: { units } },
    } as unknown as ModelLayer;
    h.ctx.layers.animation = animation as unknown as AnimationLayer;
    const geometry = new THREE.BufferGeometry();
    const base = positions();
    geometry.setAttribute('position', new THREE.BufferAttribute(base, 3));
    deformation.attach(geometry, base);
    return { ...h, deformation, geometry, base };
  }

  it('warps by the named field × scale, in model units, with the undeformed outline', () => {
    const { ctx, deformation, geometry } = setup('mm');
    expect(ctx.root.children).toContain(deformation.outline);
    deformation.setDeformation({ field: 'warp', scale: 10 });
    // 1 mm of warp × 10 = 10 mm = 10 model units.
    expect(Array.from(deformation.positions!)).toEqual([0, 0, 0, 11, 0, 0, 0, 21, 0, 0, 0, -9]);
    expect(geometry.getAttribute('position').array).toBe(deformation.positions);
    expect(deformation.outline.visible).toBe(true);
  });

  it('swings a mode shape and restores the undeformed shape at scale 0 or for a non-vector field', () => {
    const { deformation, base } = setup('m');
    deformation.setDeformation({ field: 'warp', scale: 1000 });
    deformation.swingTo(Math.PI / 6);
    expect(deformation.positions![3]).toBeCloseTo(1.5);
    expect(deformation.positions![7]).toBeCloseTo(2);
    // The other half of the cycle mirrors the shape through the undeformed one (sin < 0).
    deformation.swingTo((7 * Math.PI) / 6);
    expect(deformation.positions![3]).toBeCloseTo(0.5);
    expect(deformation.positions![7]).toBeCloseTo(0);
    expect(deformation.outline.visible).toBe(true);
    deformation.swingTo(0);
    expect(deformation.positions![7]).toBeCloseTo(3);
    deformation.setDeformation({ field: 'warp', scale: 0 });
    expect(deformation.positions).toBe(base);
    expect(deformation.outline.visible).toBe(false);
    deformation.setDeformation({ field: 'heat', scale: 5 });
    expect(deformation.positions).toBe(base);
  });
});

describe('the layers composed (no WebGL)', () => {
  function loaded() {
    const h = fakeContext();
    const layers = buildLayers(h.ctx);
    layers.model.load({ type: 'load-mesh', mesh: mesh(), fields: { heat, warp } });
    return { ...h, layers };
  }

  it('loads: colours the catalogue’s first field with its legend, sends the topology job', () => {
    const { layers, ctx, jobs } = loaded();
    expect(ctx.stats.loaded).toBe(true);
    expect(ctx.root.children).toContain(layers.model.model!.surface);
    expect(layers.exporter.shown()).toMatchObject({
      field: 'heat',
      legend: { title: 'Heat', units: 'K', min: 300, max: 330 },
      deformation: { field: null, scale: 0 },
      position: [0, 0, 0],
    });
    expect(jobs.map((j) => j.kind)).toContain('mesh');
  });

  it('follows protocol calls through the command table', () => {
    const { layers, events, jobs, ctx } = loaded();
    runCommand(layers, 'setField', [{ name: 'warp', display: 'magnitude' }]);
    expect(layers.exporter.shown().legend).toMatchObject({ title: '|Warp|', units: 'm' });
    runCommand(layers, 'setColorRange', [0, 1]);
    expect(layers.surface.range).toMatchObject({ min: 0, max: 1 });
    runCommand(layers, 'setDeformation', [{ field: 'warp', scale: 2 }]);
    expect(layers.exporter.shown(1).position).toEqual([3, 0, 0]);
    runCommand(layers, 'setViewerMode', ['section']);
    expect(events).toContainEqual({ kind: 'section-range', min: 0, max: 1, offset: 0.5 });
    expect(jobs.map((j) => j.kind)).toContain('slice');
    runCommand(layers, 'setSectionLock', [true]);
    runCommand(layers, 'setSectionOffset', [0.9]);
    expect(layers.section.offset).toBe(0.5);
    expect(ctx.container.querySelector('.fl-badge')!.textContent).toBe('Section z = 0.5000 mm  (locked)');
    runCommand(layers, 'highlightProblems', [
      { vertices: new Uint32Array([1]), faces: new Uint32Array(0), messages: [] },
    ]);
    expect(layers.problems.shown).toBe(true);
    runCommand(layers, 'clearData', []);
    expect(ctx.stats.loaded).toBe(false);
    expect(layers.problems.shown).toBe(false);
    expect(layers.exporter.shown()).toMatchObject({ field: null, legend: null, position: null });
  });

  it('linked panes: with sync events a user move is reported once per frame, setCamera is not, and the legend reports its data range', async () => {
    const { layers, events, ctx } = loaded();
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(null)));
    ctx.view.controls.update();
    await frame();
    expect(events.filter((e) => e.kind === 'camera' || e.kind === 'legend')).toEqual([]);
    runCommand(layers, 'setSyncEvents', [true]);
    await frame();
    expect(events.filter((e) => e.kind === 'legend').at(-1)).toEqual({
      kind: 'legend',
      field: 'heat',
      min: 300,
      max: 330,
      dataMin: 300,
      dataMax: 330,
    });
    events.length = 0;
    // a drag: several changes in one frame, one report with where the camera ended
    ctx.view.camera.position.set(1, 2, 3);
    ctx.view.controls.update();
    ctx.view.camera.position.set(4, 5, 6);
    ctx.view.controls.update();
    await frame();
    const moves = events.filter((e) => e.kind === 'camera');
    expect(moves).toHaveLength(1);
    expect(moves[0]).toMatchObject({ camera: { position: [4, 5, 6], target: [0, 0, 0] } });
    events.length = 0;
    runCommand(layers, 'setCamera', [{ position: [7, 8, 9], target: [1, 1, 1], up: [0, 0, 1] }]);
    await frame();
    expect(events.filter((e) => e.kind === 'camera')).toEqual([]);
    expect(layers.exporter.shown().camera).toEqual({ position: [7, 8, 9], target: [1, 1, 1], up: [0, 0, 1] });
    // a range set by the parent: the legend shows it, the data range stays the field's own
    runCommand(layers, 'setColorRange', [250, 400]);
    expect(events.filter((e) => e.kind === 'legend').at(-1)).toEqual({
      kind: 'legend',
      field: 'heat',
      min: 250,
      max: 400,
      dataMin: 300,
      dataMax: 330,
    });
  });

  it('markFaces draws the form’s faces in their role’s colour, kept across a new model and cleared with it', () => {
    const { layers, ctx } = loaded();
    runCommand(layers, 'markFaces', [
      [
        { faces: [1, 2], tone: 'constraint' },
        { faces: [4, 99], tone: 'load' },
        { faces: [3], tone: 'load', member: 1 },
      ],
    ]);
    // face ids are 1-based surface triangles; 99 is not on this model
    expect(layers.exporter.shown().marks).toEqual({ constraint: 2, load: 2 });
    const group = ctx.overlays.children.find(
      (c) => c instanceof THREE.Group && c !== undefined,
    ) as THREE.Group;
    const colours = group.children.map((c) =>
      ((c as THREE.Mesh).material as THREE.MeshBasicMaterial).color.getHex(),
    );
    // the second load (port 2, terminal 2) is not the first's colour (qa32)
    expect(colours).toEqual([0x3b8bff, 0xff6a2b, 0xe8175d]);
    expect(layers.exporter.shown().markColours).toEqual({ '#3b8bff': 2, '#ff6a2b': 1, '#e8175d': 1 });
    // the marks share the surface's positions, so they follow the deformed shape
    const surface = layers.model.model!.surfaceGeometry.getAttribute('position');
    expect((group.children[0] as THREE.Mesh).geometry.getAttribute('position')).toBe(surface);
    layers.model.load({ type: 'load-mesh', mesh: mesh(), fields: { heat } });
    expect(layers.exporter.shown().marks).toEqual({ constraint: 2, load: 2 });
    runCommand(layers, 'markFaces', [[{ faces: [3], tone: 'active' }]]);
    expect(layers.exporter.shown().marks).toEqual({ active: 1 });
    runCommand(layers, 'clearData', []);
    expect(layers.exporter.shown().marks).toEqual({});
  });

  it('markArrows draws the form’s arrows over everything, kept across a new model, none without one', () => {
    const { layers, ctx } = loaded();
    runCommand(layers, 'markArrows', [
      [
        { origin: [0, 0, 0], direction: [0, 0.5, 0], tone: 'load' },
        { origin: [1, 0, 0], direction: [0, -0.5, 0], tone: 'load', member: 1 },
        { origin: [1, 0, 0], direction: [0, 0, 0], tone: 'load' },
      ],
    ]);
    // a zero-length arrow is left out
    expect(layers.exporter.shown().arrowMarks).toBe(2);
    const group = ctx.overlays.children.find((c) => c.name === 'arrow-marks') as THREE.Group;
    const arrow = group.children[1] as THREE.ArrowHelper;
    // drawn over the model: a winding sits inside the air around it
    expect((arrow.cone.material as THREE.Material).depthTest).toBe(false);
    // the second member in the load role's second colour, as its face marks
    expect((arrow.cone.material as THREE.MeshBasicMaterial).color.getHex()).toBe(0xe8175d);
    layers.model.load({ type: 'load-mesh', mesh: mesh(), fields: { heat } });
    expect(layers.exporter.shown().arrowMarks).toBe(2);
    runCommand(layers, 'clearData', []);
    expect(layers.exporter.shown().arrowMarks).toBe(0);
  });

  it('keeps the user’s field across results that have it; says so when one lacks it', () => {
    const { layers, ctx } = loaded();
    runCommand(layers, 'setField', [{ name: 'warp', display: 'magnitude' }]);
    layers.model.load({ type: 'load-mesh', mesh: mesh(), fields: { heat, warp } });
    expect(layers.exporter.shown().field).toBe('warp');
    runCommand(layers, 'setField', [{ name: 'absent', display: 'magnitude' }]);
    expect(ctx.container.querySelector('.fl-badge')!.textContent).toBe('No absent in these results');
  });

  it('streamlines follow a catalogue name; the spec-era E and H map through the contract', () => {
    const { layers } = loaded();
    runCommand(layers, 'setStreamlines', [
      { enabled: false, seeds: 10, field: 'E', seedPlacement: 'volume' },
    ]);
    expect(layers.streamlines.fieldName).toBe(SPEC_STREAMLINE_FIELDS.E);
    runCommand(layers, 'setStreamlines', [
      { enabled: false, seeds: 10, field: 'warp', seedPlacement: 'volume' },
    ]);
    expect(layers.streamlines.fieldName).toBe('warp');
  });
});
