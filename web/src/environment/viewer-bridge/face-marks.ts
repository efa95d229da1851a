import { type FaceMark, type FaceMarkTone, faceMarkColour } from '@fieldline/contracts';
import type { AnalysisForm } from '../config/analysis-form.ts';
import { parseFaceList } from '../config/face-list.ts';
import type { FaceRow } from '../families/family-module.ts';
import { familyById } from '../families/registry.ts';
import type { PickTarget } from '../state/environment-state.ts';

/** The face lists the chosen physics runs with, the role each row plays and what the legend calls it. */
const listsOf = (form: AnalysisForm) => familyById(form.physics).faceLists(form);

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
