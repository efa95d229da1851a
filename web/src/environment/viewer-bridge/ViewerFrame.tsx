import { forwardRef, useEffect, useImperativeHandle, useMemo, useRef, useState } from 'react';
import { toggleFacesInList } from '../config/face-list.ts';
import { familyById } from '../families/registry.ts';
import { useEnv, useServices } from '../state/EnvironmentContext.tsx';
import { loadFile } from '../workflows/load-file.ts';
import { faceMarks } from './face-marks.ts';

export const VIEWER_URL = '/viewer.html';

/** The viewer iframe, its drop target and face picking; the bridge does the messaging. */
export const ViewerFrame = forwardRef<HTMLDivElement>(function ViewerFrame(_props, ref) {
  const { bridge, store, deps, jobs } = useServices();
  const frame = useRef<HTMLIFrameElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const [dragging, setDragging] = useState(false);
  useImperativeHandle(ref, () => box.current as HTMLDivElement);

  useEffect(() => (frame.current ? bridge.attach(frame.current) : undefined), [bridge]);

  // the form's supports, loads, conditions and ports, marked on the model in their role's colour
  const form = useEnv((s) => s.form);
  const pickTarget = useEnv((s) => s.pickTarget);
  const showingResults = useEnv((s) => s.results !== null);
  const marks = useMemo(
    () => JSON.stringify(faceMarks(form, pickTarget, showingResults)),
    [form, pickTarget, showingResults],
  );
  useEffect(() => bridge.call('markFaces', JSON.parse(marks)), [bridge, marks]);

  // arrows the chosen family draws before a run (a coil's current direction); none over results
  const mesh = useEnv((s) => s.model?.mesh ?? null);
  const arrows = useMemo(
    () =>
      JSON.stringify(
        showingResults || !mesh ? [] : (familyById(form.physics).arrowMarks?.(form, mesh) ?? []),
      ),
    [form, mesh, showingResults],
  );
  useEffect(() => bridge.call('markArrows', JSON.parse(arrows)), [bridge, arrows]);

  // face-picked → add to (or remove from) the face list being picked; whole CAD faces when known
  useEffect(
    () =>
      bridge.onMessage((m) => {
        if (m.type !== 'viewer-event' || m.event.kind !== 'face-picked') return;
        const { pickTarget, model } = store.get();
        if (!pickTarget) return;
        const ids = facesOfPatch(m.event.faceId, model?.facePatches);
        store.set((s) => ({
          form: {
            ...s.form,
            [pickTarget.list]: (s.form[pickTarget.list] as { key: string; faces: string }[]).map((row) =>
              row.key === pickTarget.key ? { ...row, faces: toggleFacesInList(row.faces, ids) } : row,
            ),
          },
        }));
      }),
    [bridge, store],
  );

  // the iframe swallows drag events: a drag entering the page shows an overlay that takes the drop
  useEffect(() => {
    const enter = (e: DragEvent) => {
      if (e.dataTransfer?.types.includes('Files')) setDragging(true);
    };
    window.addEventListener('dragenter', enter);
    return () => window.removeEventListener('dragenter', enter);
  }, []);

  return (
    <div className="viewer-box" ref={box}>
      <iframe
        ref={frame}
        src={VIEWER_URL}
        title="Field viewer"
        className="viewer-frame"
        data-testid="viewer-frame"
      />
      {dragging && (
        // biome-ignore lint/a11y/noStaticElementInteractions: a drop target for files dragged over the iframe
        <div
          className="drop-overlay"
          data-testid="drop-overlay"
          onDragOver={(e) => e.preventDefault()}
          onDragLeave={() => setDragging(false)}
          onDrop={(e) => {
            e.preventDefault();
            setDragging(false);
            const file = e.dataTransfer.files[0];
            if (!file) return;
            jobs.stop('meshing');
            jobs.stop('analysis');
            void loadFile(file, deps);
          }}
        >
          Drop a model or results file to load it
        </div>
      )}
    </div>
  );
});

/** All 1-based face ids sharing the clicked triangle's CAD face (or just the clicked one). */
export function facesOfPatch(faceId: number, patches: readonly number[] | undefined): number[] {
  const patch = patches?.[faceId - 1];
  if (patches === undefined || patch === undefined) return [faceId];
  const ids: number[] = [];
  patches.forEach((p, i) => {
    if (p === patch) ids.push(i + 1);
  });
  return ids;
}
