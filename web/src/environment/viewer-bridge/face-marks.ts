import { type FaceMark, type FaceMarkTone, faceMarkColour } from '@fieldline/contracts';
import type { AnalysisForm } from '../config/analysis-form.ts';
import { parseFaceList } from '../config/face-list.ts';
import type { PickTarget } from '../state/environment-state.ts';

type FaceRow = { key: string; faces: string; kind?: string; name?: string; portID?: string };
type Entry = {
  list: PickTarget['list'];
  toneOf: (row: FaceRow) => FaceMarkTone;
  /** what the legend calls the row, e.g. "Port 2", when it has no name of its own */
  nameOf: (row: FaceRow, index: number) => string;
};

const named = (fallback: string) => (row: FaceRow, i: number) => row.name?.trim() || `${fallback} ${i + 1}`;
const supports: Entry = { list: 'structuralSupports', toneOf: () => 'constraint', nameOf: named('Support') };
const loads: Entry = { list: 'structuralLoads', toneOf: () => 'load', nameOf: named('Load') };

/** The face lists the chosen physics runs with, the role each row plays and what the legend calls it. */
function listsOf(form: AnalysisForm): Entry[] {
  switch (form.physics) {
    case 'structural':
      return [supports, loads];
    case 'vibration':
      return form.vibrationKind === 'harmonic' ? [supports, loads] : [supports];
    case 'thermal':
      return [
        {
          list: 'thermalConditions',
          toneOf: (row) =>
            row.kind === 'temperature' ? 'constraint' : row.kind === 'flux' ? 'load' : 'other',
          nameOf: named('Condition'),
        },
        ...(form.jouleHeating
          ? [
              {
                list: 'dirichletFaceGroups',
                toneOf: () => 'other',
                nameOf: named('Terminal'),
              } satisfies Entry,
            ]
          : []),
      ];
    default:
      return [
        { list: 'dirichletFaceGroups', toneOf: () => 'constraint', nameOf: named('Terminal') },
        { list: 'neumann', toneOf: () => 'other', nameOf: named('Neumann') },
        { list: 'impedance', toneOf: () => 'other', nameOf: named('Impedance') },
        {
          list: 'wavePorts',
          toneOf: () => 'load',
          nameOf: (row, i) => `Port ${row.portID?.trim() || i + 1}`,
        },
      ];
  }
}

/** A row's place in the marks: its role, which member of the role it is (its colour) and its name. */
export interface RowMark {
  list: PickTarget['list'];
  row: FaceRow;
  tone: FaceMarkTone;
  member: number;
  name: string;
}

/**
 * Every row of the chosen physics with its role and its index among that role's rows (rows without
 * faces yet count too, so a row keeps its colour while its faces are typed).
 */
function rowMarks(form: AnalysisForm): RowMark[] {
  const members: Partial<Record<FaceMarkTone, number>> = {};
  const out: RowMark[] = [];
  for (const { list, toneOf, nameOf } of listsOf(form)) {
    (form[list] as FaceRow[]).forEach((row, i) => {
      const tone = toneOf(row);
      const member = members[tone] ?? 0;
      members[tone] = member + 1;
      out.push({ list, row, tone, member, name: nameOf(row, i) });
    });
  }
  return out;
}

/**
 * What the viewer marks (markFaces): every face row of the chosen physics in its role's colour, each
 * member of a role in a colour of its own (port 1 and port 2 differ), the row being picked in amber. Once
 * results are shown only the row being picked is marked, so the marks do not cover the field (a support's
 * faces are where the stress peaks).
 */
export function faceMarks(
  form: AnalysisForm,
  pickTarget: PickTarget | null,
  showingResults: boolean,
): FaceMark[] {
  const marks: FaceMark[] = [];
  for (const { list, row, tone, member } of rowMarks(form)) {
    const active = pickTarget?.list === list && pickTarget.key === row.key;
    if (showingResults && !active) continue;
    const faces = parseFaceList(row.faces);
    if (faces.length > 0) marks.push(active ? { faces, tone: 'active' } : { faces, tone, member });
  }
  return marks;
}

/** The swatch beside a face list: the colour its faces are marked in and the row's name, or null when not marked. */
export function markOf(
  form: AnalysisForm,
  target: PickTarget,
): { tone: FaceMarkTone; member: number; name: string; colour: { hex: string; name: string } } | null {
  const found = rowMarks(form).find((m) => m.list === target.list && m.row.key === target.key);
  return found
    ? {
        tone: found.tone,
        member: found.member,
        name: found.name,
        colour: faceMarkColour(found.tone, found.member),
      }
    : null;
}
