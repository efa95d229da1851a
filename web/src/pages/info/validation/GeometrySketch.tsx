import type { ReactNode } from 'react';

/** Small line sketches of the reference geometries (48 × 32 units), keyed by the report's `geometry`. */
const SKETCHES: Record<string, ReactNode> = {
  'sphere-shell': (
    <>
      <circle cx="24" cy="16" r="13" />
      <circle cx="24" cy="16" r="6" className="filled" />
    </>
  ),
  'sphere-in-box': (
    <>
      <rect x="6" y="2" width="36" height="28" />
      <circle cx="24" cy="16" r="7" className="filled" />
    </>
  ),
  coax: (
    <>
      <ellipse cx="10" cy="16" rx="5" ry="12" />
      <ellipse cx="10" cy="16" rx="2" ry="5" className="filled" />
      <path d="M10 4 H40 M10 28 H40 M10 11 H40 M10 21 H40" />
      <ellipse cx="40" cy="16" rx="5" ry="12" />
    </>
  ),
  wire: (
    <>
      <ellipse cx="10" cy="16" rx="4" ry="9" />
      <path d="M10 7 H40 M10 25 H40" />
      <ellipse cx="40" cy="16" rx="4" ry="9" />
    </>
  ),
  'two-conductors': (
    <>
      <rect x="3" y="2" width="42" height="28" />
      <rect x="10" y="11" width="9" height="10" className="filled" />
      <circle cx="32" cy="16" r="5" className="filled" />
    </>
  ),
  cube: (
    <>
      <rect x="10" y="8" width="20" height="20" />
      <path d="M10 8 L18 2 H38 V22 L30 28 M30 8 L38 2" />
    </>
  ),
  waveguide: (
    <>
      <rect x="3" y="10" width="12" height="8" />
      <path d="M15 10 L40 4 M15 18 L40 12 M3 10 L28 4 H40 V12" />
    </>
  ),
  cavity: (
    <>
      <rect x="6" y="10" width="30" height="16" />
      <path d="M6 10 L14 4 H44 V20 L36 26 M36 10 L44 4" />
    </>
  ),
  channel: (
    <>
      <path d="M2 10 H30 M2 22 H30" />
      <rect x="30" y="4" width="14" height="24" className="hatched" />
      <path d="M6 16 h14 m-4 -3 l4 3 l-4 3" />
    </>
  ),
  beam: (
    <>
      <path d="M4 2 V30" className="support" />
      <rect x="4" y="12" width="38" height="8" />
    </>
  ),
  bar: (
    <>
      <rect x="4" y="11" width="40" height="10" />
      <path d="M4 11 L8 8 H48 V18 L44 21 M44 11 L48 8" />
    </>
  ),
  tube: (
    <>
      <path d="M4 28 A24 24 0 0 1 28 4 M14 28 A14 14 0 0 1 28 14 M4 28 H14 M28 4 V14" />
    </>
  ),
  'plate-hole': (
    <>
      <rect x="4" y="6" width="40" height="20" />
      <circle cx="24" cy="16" r="4" />
      <path d="M1 16 h3 M44 16 h3" />
    </>
  ),
  block: <rect x="14" y="6" width="20" height="20" />,
  // A quarter of the elliptic annulus (inner 2 × 1 m, outer 3.25 × 2.75 m), pressed on its face.
  'nafems-le10': (
    <>
      <path d="M22 28 H33 A29 25 0 0 0 4 3 V19 A18 9 0 0 1 22 28 Z" />
      <path d="M38 4 v8 m-3 -3 l3 3 l3 -3" />
    </>
  ),
  // Issue 36's coupled cases, 39's magnetics, 40's adaptive refinement.
  strip: (
    <>
      <path d="M4 2 V30" className="support" />
      <rect x="4" y="11" width="38" height="5" />
      <rect x="4" y="16" width="38" height="5" className="filled" />
    </>
  ),
  'l-shape': <path d="M6 4 H42 V16 H24 V28 H6 Z" />,
  cylinder: (
    <>
      <ellipse cx="24" cy="6" rx="12" ry="4" />
      <path d="M12 6 V26 A12 4 0 0 0 36 26 V6" />
    </>
  ),
  toroid: (
    <>
      <circle cx="24" cy="16" r="13" />
      <circle cx="24" cy="16" r="6" />
      <path d="M24 3 v4 M37 16 h-4 M24 29 v-4 M11 16 h4 M15 7 l3 3 M33 7 l-3 3 M33 25 l-3 -3 M15 25 l3 -3" />
    </>
  ),
  'coaxial-coils': (
    <>
      <rect x="6" y="4" width="10" height="24" className="filled" />
      <rect x="30" y="4" width="10" height="24" className="filled" />
      <path d="M2 16 H46" />
    </>
  ),
  'solid-ring': (
    <>
      <ellipse cx="24" cy="16" rx="20" ry="9" />
      <ellipse cx="24" cy="16" rx="15" ry="5" />
      <path d="M40 9 l4 0 l-2 3" />
    </>
  ),
  'parallel-bars': (
    <>
      <rect x="8" y="10" width="10" height="12" className="filled" />
      <rect x="30" y="10" width="10" height="12" className="filled" />
      <path d="M13 4 v4 m-3 -2 l3 -2 l3 2 M35 28 v-4 m-3 2 l3 2 l3 -2" />
    </>
  ),
  magnet: (
    <>
      <rect x="16" y="10" width="16" height="18" className="filled" />
      <path d="M24 8 V2 m-3 3 l3 -3 l3 3" />
    </>
  ),
  'c-core': (
    <>
      <path d="M40 4 H8 V28 H40 V19 H32 V22 H14 V10 H32 V13 H40 Z" />
      <rect x="4" y="12" width="8" height="8" className="filled" />
    </>
  ),
  'round-wire': (
    <>
      <circle cx="24" cy="16" r="12" />
      <circle cx="24" cy="16" r="8" className="filled" />
    </>
  ),
  'billet-slice': (
    <>
      <rect x="4" y="4" width="40" height="24" className="hatched" />
      <rect x="10" y="10" width="28" height="12" className="filled" />
    </>
  ),
  // TEAM 7: an aluminium plate with an off-centre hole under a racetrack coil.
  team7: (
    <>
      <rect x="4" y="8" width="40" height="20" />
      <rect x="8" y="12" width="14" height="12" />
      <rect x="26" y="4" width="16" height="14" rx="4" className="filled" />
    </>
  ),
  plate: (
    <>
      <path d="M4 20 L16 12 H44 L32 20 Z" />
      <path d="M24 4 v8 m-3 -3 l3 3 l3 -3" />
    </>
  ),
};

export function GeometrySketch({ geometry }: { geometry: string }) {
  const sketch = SKETCHES[geometry];
  if (!sketch) return null;
  return (
    <svg className="geometry-sketch" viewBox="0 0 48 32" width="48" height="32" aria-hidden="true">
      {sketch}
    </svg>
  );
}

export const SKETCHED_GEOMETRIES = Object.keys(SKETCHES);
