import type { FaceMark } from '@fieldline/contracts';
import type { AnalysisForm } from '../config/analysis-form.ts';
import { parseFaceList } from '../config/face-list.ts';
import type { PickTarget } from '../state/environment-state.ts';

type FaceRows = { key: string; faces: string; kind?: string }[];
type Entry = [PickTarget['list'], (row: FaceRows[number]) => FaceMark['tone']];

/** The face lists the chosen physics runs with, and the role each row plays. */
function listsOf(form: AnalysisForm): Entry[] {
  switch (form.physics) {
    case 'structural':
      return [
        ['structuralSupports', () => 'constraint'],
        ['structuralLoads', () => 'load'],
      ];
    case 'vibration':
      return form.vibrationKind === 'harmonic'
        ? [
            ['structuralSupports', () => 'constraint'],
            ['structuralLoads', () => 'load'],
          ]
        : [['structuralSupports', () => 'constraint']];
    case 'thermal':
      return [
        [
          'thermalConditions',
          (row) => (row.kind === 'temperature' ? 'constraint' : row.kind === 'flux' ? 'load' : 'other'),
        ],
        ...(form.jouleHeating ? [['dirichletFaceGroups', () => 'other'] satisfies Entry] : []),
      ];
    default:
      return [
        ['dirichletFaceGroups', () => 'constraint'],
        ['neumann', () => 'other'],
        ['impedance', () => 'other'],
        ['wavePorts', () => 'load'],
      ];
  }
}

/**
 * What the viewer marks (markFaces): every face row of the chosen physics in its role's colour, the row being
 * picked in amber. Once results are shown only the row being picked is marked, so the marks do not cover
 * the field (a support's faces are where the stress peaks).
 */
export function faceMarks(
  form: AnalysisForm,
  pickTarget: PickTarget | null,
  showingResults: boolean,
): FaceMark[] {
  const marks: FaceMark[] = [];
  for (const [list, toneOf] of listsOf(form)) {
    for (const row of form[list] as FaceRows) {
      const active = pickTarget?.list === list && pickTarget.key === row.key;
      if (showingResults && !active) continue;
      const faces = parseFaceList(row.faces);
      if (faces.length > 0) marks.push({ faces, tone: active ? 'active' : toneOf(row) });
    }
  }
  return marks;
}

/** The colour a row's faces are marked in (its swatch beside the face list), or null when not marked. */
export function markToneOf(form: AnalysisForm, target: PickTarget): FaceMark['tone'] | null {
  const entry = listsOf(form).find(([list]) => list === target.list);
  const row = entry && (form[target.list] as FaceRows).find((r) => r.key === target.key);
  return entry && row ? entry[1](row) : null;
}
