import * as THREE from 'three';
import type { ColorRange } from '../color/color-scale.ts';
import { type ColorMapName, colorMapLut, LUT_SIZE } from '../color/colormaps.ts';

/**
 * Shader materials that colour by a per-vertex scalar on the GPU: the value is interpolated across each
 * triangle and mapped through the colour-map texture per pixel (linear or log), so the map is exact
 * inside triangles and a frame change only replaces the scalar attribute.
 */

export interface ColorUniforms {
  uLut: { value: THREE.DataTexture };
  uMin: { value: number };
  uMax: { value: number };
  uLog: { value: boolean };
  [name: string]: THREE.IUniform;
}

export function createColorUniforms(): ColorUniforms {
  return {
    uLut: { value: lutTexture('viridis') },
    uMin: { value: 0 },
    uMax: { value: 1 },
    uLog: { value: false },
  };
}

const textures = new Map<ColorMapName, THREE.DataTexture>();
export function lutTexture(map: ColorMapName): THREE.DataTexture {
  let tex = textures.get(map);
  if (!tex) {
    tex = new THREE.DataTexture(colorMapLut(map), LUT_SIZE, 1, THREE.RGBAFormat, THREE.UnsignedByteType);
    tex.magFilter = THREE.LinearFilter;
    tex.minFilter = THREE.LinearFilter;
    tex.wrapS = THREE.ClampToEdgeWrapping;
    tex.colorSpace = THREE.NoColorSpace; // the table is already display (sRGB) colour
    tex.needsUpdate = true;
    textures.set(map, tex);
  }
  return tex;
}

export function applyRange(uniforms: ColorUniforms, range: ColorRange): void {
  uniforms.uMin.value = range.min;
  uniforms.uMax.value = range.max;
  uniforms.uLog.value = range.log;
}

const NORMALIZE_GLSL = /* glsl */ `
uniform sampler2D uLut;
uniform float uMin;
uniform float uMax;
uniform bool uLog;
vec3 fieldColor(float v) {
  float t;
  if (uLog) t = log(max(v, uMin) / uMin) / log(uMax / uMin);
  else t = (v - uMin) / (uMax - uMin);
  t = clamp(t, 0.0, 1.0);
  // Sample texel centres so 0 and 1 hit the first and last entries exactly.
  return texture2D(uLut, vec2((t * 255.0 + 0.5) / 256.0, 0.5)).rgb;
}
`;

/** The body surface: field colour (or body colour), flat shading from screen derivatives, x-ray option. */
export function createSurfaceMaterial(colors: ColorUniforms, bodyColor: THREE.Color): THREE.ShaderMaterial {
  return new THREE.ShaderMaterial({
    uniforms: {
      ...colors,
      uUseField: { value: true },
      uBaseColor: { value: bodyColor },
      uXray: { value: false },
      uOpacity: { value: 1 },
    },
    vertexShader: /* glsl */ `
      attribute float scalar;
      varying float vScalar;
      varying vec3 vViewPos;
      #include <clipping_planes_pars_vertex>
      void main() {
        vScalar = scalar;
        vec4 mvPosition = modelViewMatrix * vec4(position, 1.0);
        vViewPos = mvPosition.xyz;
        gl_Position = projectionMatrix * mvPosition;
        #include <clipping_planes_vertex>
      }`,
    fragmentShader: /* glsl */ `
      ${NORMALIZE_GLSL}
      uniform bool uUseField;
      uniform vec3 uBaseColor;
      uniform bool uXray;
      uniform float uOpacity;
      varying float vScalar;
      varying vec3 vViewPos;
      #include <clipping_planes_pars_fragment>
      void main() {
        #include <clipping_planes_fragment>
        vec3 n = normalize(cross(dFdx(vViewPos), dFdy(vViewPos)));
        vec3 toEye = normalize(-vViewPos);
        float ndl = abs(dot(n, toEye));
        vec3 base = uUseField ? fieldColor(vScalar) : uBaseColor;
        // Headlight: diffuse plus a soft highlight; keeps colours readable from any side.
        float spec = pow(ndl, 24.0) * 0.12;
        vec3 color = base * (0.42 + 0.58 * ndl) + spec;
        float alpha = uOpacity;
        if (uXray) {
          float rim = 1.0 - ndl;
          alpha = uOpacity * (0.12 + 0.7 * rim * rim);
          color = base * (0.75 + 0.25 * ndl) + rim * 0.15;
        }
        gl_FragColor = vec4(color, alpha);
      }`,
    side: THREE.DoubleSide,
    clipping: true,
    polygonOffset: true,
    polygonOffsetFactor: 1,
    polygonOffsetUnits: 1,
  });
}

/** Mesh edges and other lines: a fixed colour, or the field colour (wireframe mode). */
export function createLineMaterial(colors: ColorUniforms): THREE.ShaderMaterial {
  return new THREE.ShaderMaterial({
    uniforms: {
      ...colors,
      uUseField: { value: false },
      uColor: { value: new THREE.Color(0x0b0f14) },
      uOpacity: { value: 0.35 },
    },
    vertexShader: /* glsl */ `
      attribute float scalar;
      varying float vScalar;
      #include <clipping_planes_pars_vertex>
      void main() {
        vScalar = scalar;
        vec4 mvPosition = modelViewMatrix * vec4(position, 1.0);
        gl_Position = projectionMatrix * mvPosition;
        #include <clipping_planes_vertex>
      }`,
    fragmentShader: /* glsl */ `
      ${NORMALIZE_GLSL}
      uniform bool uUseField;
      uniform vec3 uColor;
      uniform float uOpacity;
      varying float vScalar;
      #include <clipping_planes_pars_fragment>
      void main() {
        #include <clipping_planes_fragment>
        gl_FragColor = vec4(uUseField ? fieldColor(vScalar) : uColor, uOpacity);
      }`,
    transparent: true,
    depthWrite: false,
    clipping: true,
  });
}

/** Instanced arrows coloured by the field magnitude of each instance. */
export function createArrowMaterial(colors: ColorUniforms): THREE.ShaderMaterial {
  return new THREE.ShaderMaterial({
    uniforms: { ...colors, uNeutral: { value: false } },
    vertexShader: /* glsl */ `
      attribute float aScalar;
      varying float vScalar;
      varying vec3 vNormal;
      varying vec3 vViewPos;
      void main() {
        vScalar = aScalar;
        mat4 m = modelViewMatrix * instanceMatrix;
        vec4 mvPosition = m * vec4(position, 1.0);
        vNormal = normalize(mat3(m) * normal);
        vViewPos = mvPosition.xyz;
        gl_Position = projectionMatrix * mvPosition;
        // A small pull towards the camera: arrows lying in a surface are drawn over it, not half buried.
        gl_Position.z -= 0.002 * gl_Position.w;
      }`,
    fragmentShader: /* glsl */ `
      ${NORMALIZE_GLSL}
      uniform bool uNeutral;
      varying float vScalar;
      varying vec3 vNormal;
      varying vec3 vViewPos;
      void main() {
        float ndl = abs(dot(normalize(vNormal), normalize(-vViewPos)));
        // Over a field-coloured surface, arrows in the field's own colours would vanish: use white.
        vec3 base = uNeutral ? vec3(0.93, 0.95, 0.97) : fieldColor(vScalar);
        gl_FragColor = vec4(base * (0.35 + 0.65 * ndl) + pow(ndl, 30.0) * 0.2, 1.0);
      }`,
  });
}

/** Opaque single-colour overlay (problem faces, picked face), drawn on top of the surface. */
export function createOverlayMaterial(color: number, opacity = 0.85): THREE.MeshBasicMaterial {
  return new THREE.MeshBasicMaterial({
    color,
    transparent: opacity < 1,
    opacity,
    side: THREE.DoubleSide,
    polygonOffset: true,
    polygonOffsetFactor: -2,
    polygonOffsetUnits: -2,
    depthWrite: false,
  });
}
