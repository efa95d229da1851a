import type { ViewerMesh } from '@fieldline/contracts';
import * as THREE from 'three';
import { groupByBody } from '../geometry/body-groups.ts';
import { type ColorUniforms, createLineMaterial, createSurfaceMaterial } from './materials.ts';

/** Colours of bodies when no field is shown: calm, distinguishable, readable under the headlight. */
export const BODY_COLORS = [0x8fa8c8, 0xd9a66b, 0x7fbf9a, 0xc98fb7, 0xb9b27a, 0x86b7c4, 0xd08c7f, 0x9e9ad6];

export interface Model {
  mesh: ViewerMesh;
  nv: number;
  bounds: THREE.Box3;
  surface: THREE.Mesh;
  surfaceGeometry: THREE.BufferGeometry;
  materials: THREE.ShaderMaterial[];
  edges: THREE.LineSegments;
  /** one edge material per body (same look; per-body visibility) */
  edgeMaterials: THREE.ShaderMaterial[];
  edgeMaterial: THREE.ShaderMaterial;
  scalar: THREE.BufferAttribute;
  /** display triangles (index), their face ids (null: i + 1) and body per triangle */
  display: Uint32Array;
  faceIds: Uint32Array | null;
  triangleBodies: Uint32Array | null;
  surfaceVertices: Uint32Array | null;
}

/**
 * A model's surface (one material per body, a per-vertex scalar for field colours) and its edges (empty
 * until the worker's topology arrives), the display triangles grouped by body when their bodies are known.
 */
export function createModel(
  mesh: ViewerMesh,
  colors: ColorUniforms,
): { model: Model; groups: [number, number, number][]; bodyCount: number } {
  const positions = mesh.positions;
  const nv = positions.length / 3;
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const v = positions[i + k]!;
      if (v < lo[k]!) lo[k] = v;
      if (v > hi[k]!) hi[k] = v;
    }
  }
  const bounds = new THREE.Box3();
  if (positions.length > 0) bounds.set(new THREE.Vector3(...lo), new THREE.Vector3(...hi));
  const bodyCount = Math.max(1, mesh.bodies.length);

  // Display triangles, grouped by body when the bodies of the faces are known.
  let display = mesh.triangles;
  let faceIds = mesh.triangleFaceIds ?? null;
  let triangleBodies: Uint32Array | null = null;
  let groups: [number, number, number][] = [[0, display.length / 3, 0]];
  if (mesh.triangleBodies && bodyCount > 1 && mesh.triangleBodies.length === display.length / 3) {
    ({ display, faceIds, triangleBodies, groups } = groupByBody(
      display,
      faceIds,
      mesh.triangleBodies,
      bodyCount,
    ));
  }

  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
  const scalar = new THREE.BufferAttribute(new Float32Array(nv), 1);
  scalar.setUsage(THREE.DynamicDrawUsage);
  geometry.setAttribute('scalar', scalar);
  geometry.setIndex(new THREE.BufferAttribute(display, 1));
  geometry.boundingBox = bounds.clone();
  geometry.boundingSphere = bounds.getBoundingSphere(new THREE.Sphere());
  for (const [start, count, body] of groups) geometry.addGroup(start * 3, count * 3, body);
  const materials = Array.from({ length: bodyCount }, (_, i) =>
    createSurfaceMaterial(colors, new THREE.Color(BODY_COLORS[i % BODY_COLORS.length]!)),
  );
  const surface = new THREE.Mesh(geometry, materials);
  surface.frustumCulled = false;
  const edgeGeometry = new THREE.BufferGeometry();
  edgeGeometry.setAttribute('position', geometry.getAttribute('position'));
  edgeGeometry.setAttribute('scalar', scalar);
  edgeGeometry.setIndex(new THREE.BufferAttribute(new Uint32Array(0), 1));
  const edgeMaterial = createLineMaterial(colors);
  // Bodies share the edge look through these uniforms; each body gets its own material for visibility.
  const edgeMaterials = Array.from({ length: bodyCount }, () => {
    const mat = createLineMaterial(colors);
    mat.uniforms.uUseField = edgeMaterial.uniforms.uUseField!;
    mat.uniforms.uColor = edgeMaterial.uniforms.uColor!;
    mat.uniforms.uOpacity = edgeMaterial.uniforms.uOpacity!;
    return mat;
  });
  const edges = new THREE.LineSegments(edgeGeometry, edgeMaterials);
  edges.frustumCulled = false;
  const model: Model = {
    mesh,
    nv,
    bounds,
    surface,
    surfaceGeometry: geometry,
    materials,
    edges,
    edgeMaterials,
    edgeMaterial,
    scalar,
    display,
    faceIds,
    triangleBodies,
    surfaceVertices: null,
  };
  return { model, groups, bodyCount };
}

export function disposeModel(m: Model): void {
  m.surfaceGeometry.dispose();
  m.edges.geometry.dispose();
  for (const mat of m.materials) mat.dispose();
  for (const mat of m.edgeMaterials) mat.dispose();
  m.edgeMaterial.dispose();
}
