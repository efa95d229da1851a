import * as THREE from 'three';
import { mergeGeometries } from 'three/examples/jsm/utils/BufferGeometryUtils.js';
import { type ColorUniforms, createArrowMaterial } from './materials.ts';

/** One arrow along +y from the origin, length 1: a shaft and a cone head. */
function arrowGeometry(): THREE.BufferGeometry {
  const shaft = new THREE.CylinderGeometry(0.045, 0.045, 0.66, 8, 1, true);
  shaft.translate(0, 0.33, 0);
  const head = new THREE.ConeGeometry(0.13, 0.34, 12, 1, false);
  head.translate(0, 0.83, 0);
  const merged = mergeGeometries([shaft.toNonIndexed(), head.toNonIndexed()]);
  if (!merged) throw new Error('arrow geometry');
  return merged;
}

/**
 * Field vectors as one instanced mesh: a single draw call for thousands of arrows. Length ∝ |v| (scaled
 * by the user's vector scale), colour = |v| through the colour map; arrows start at their site.
 */
export class ArrowGlyphs {
  readonly group = new THREE.Group();
  private mesh: THREE.InstancedMesh | null = null;
  private readonly geometry = arrowGeometry();
  private readonly material: THREE.ShaderMaterial;

  constructor(colors: ColorUniforms) {
    this.material = createArrowMaterial(colors);
    this.group.name = 'arrows';
  }

  clear(): void {
    if (this.mesh) {
      this.group.remove(this.mesh);
      this.mesh.dispose();
    }
    this.mesh = null;
  }

  /**
   * sites: xyz per arrow; vectors: xyz per arrow; baseLength: the length of an arrow at |v| = vmax and
   * scale 1 (about the spacing between sites).
   */
  update(sites: Float32Array, vectors: Float32Array, baseLength: number, scale: number, vmax: number): void {
    const count = sites.length / 3;
    if (!this.mesh || this.mesh.instanceMatrix.count < count) {
      this.clear();
      const capacity = Math.max(64, count);
      const mesh = new THREE.InstancedMesh(this.geometry, this.material, capacity);
      mesh.geometry = this.geometry.clone();
      mesh.geometry.setAttribute(
        'aScalar',
        new THREE.InstancedBufferAttribute(new Float32Array(capacity), 1),
      );
      mesh.frustumCulled = false;
      this.mesh = mesh;
      this.group.add(mesh);
    }
    const mesh = this.mesh;
    const scalars = mesh.geometry.getAttribute('aScalar') as THREE.InstancedBufferAttribute;
    const m = mesh.instanceMatrix.array as Float32Array;
    const up = new THREE.Vector3(0, 1, 0);
    const dir = new THREE.Vector3();
    const q = new THREE.Quaternion();
    const mat = new THREE.Matrix4();
    const pos = new THREE.Vector3();
    const scl = new THREE.Vector3();
    const inv = vmax > 0 ? 1 / vmax : 0;
    for (let i = 0; i < count; i++) {
      const vx = vectors[3 * i]!;
      const vy = vectors[3 * i + 1]!;
      const vz = vectors[3 * i + 2]!;
      const mag = Math.sqrt(vx * vx + vy * vy + vz * vz);
      (scalars.array as Float32Array)[i] = mag;
      // Length grows with |v| from a floor, so weak-field arrows still show their direction.
      const len = mag > 0 ? baseLength * scale * (0.25 + 0.75 * Math.min(1.5, mag * inv)) : 0;
      dir.set(vx, vy, vz);
      if (mag > 0) q.setFromUnitVectors(up, dir.divideScalar(mag));
      pos.set(sites[3 * i]!, sites[3 * i + 1]!, sites[3 * i + 2]!);
      // Thin arrows stay visible: the width follows the length but never drops below a third of the base.
      const width = Math.max(len, baseLength * scale * 0.6);
      scl.set(len > 0 ? width : 0, len, len > 0 ? width : 0);
      mat.compose(pos, q, scl);
      mat.toArray(m, 16 * i);
    }
    mesh.count = count;
    mesh.instanceMatrix.needsUpdate = true;
    scalars.needsUpdate = true;
  }

  /** Plain light arrows (over a field-coloured surface) or arrows coloured by |v|. */
  set neutral(on: boolean) {
    this.material.uniforms.uNeutral!.value = on;
  }

  set visible(on: boolean) {
    this.group.visible = on;
  }
}
