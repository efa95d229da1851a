import { useId } from 'react';
import { useEnv, useServices } from '../state/EnvironmentContext.tsx';
import type { PickTarget } from '../state/environment-state.ts';
import { markOf } from '../viewer-bridge/face-marks.ts';
import { parseFaceList } from './face-list.ts';

/**
 * A face id list: typed as comma-separated integers, or picked by clicking faces in the viewer
 * while "Pick" is on. Shows how many valid ids the text holds, and a swatch of the colour its faces are
 * marked in on the model beside the row's name ("Port 2 faces"): the key to the marks.
 */
export function FaceListInput(props: {
  label?: string;
  value: string;
  onChange: (value: string) => void;
  target: PickTarget;
  testId?: string;
}) {
  const { store, bridge } = useServices();
  const picking = useEnv((s) => s.pickTarget?.key === props.target.key);
  const faceCount = useEnv((s) => s.model?.mesh.faces.length ?? 0);
  const form = useEnv((s) => s.form);
  const mark = markOf(form, props.target);
  const id = useId();
  const ids = parseFaceList(props.value);
  const outOfRange = faceCount > 0 ? ids.filter((id) => id > faceCount) : [];
  const togglePick = () => {
    const next = picking ? null : props.target;
    store.set({ pickTarget: next });
    bridge.call('setFacePicking', next !== null);
  };
  return (
    <div className={`field face-list${outOfRange.length ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>
        <span>
          {mark && (
            <span
              className="mark-swatch"
              style={{ background: mark.colour.hex }}
              title={`${mark.name}: marked in ${mark.colour.name} on the model`}
              data-testid={props.testId ? `${props.testId}-swatch` : undefined}
            />
          )}
          {props.label ?? (mark ? `${mark.name} faces` : 'Faces')}
        </span>{' '}
        <span className="muted">
          {ids.length} face{ids.length === 1 ? '' : 's'}
        </span>
      </label>
      <div className="field-input">
        <input
          id={id}
          value={props.value}
          placeholder="e.g. 12, 13, 14"
          spellCheck={false}
          data-testid={props.testId}
          onChange={(e) => props.onChange(e.target.value)}
        />
        <button
          type="button"
          className={`pick${picking ? ' active' : ''}`}
          aria-pressed={picking}
          title="Click faces in the viewer to add or remove them"
          onClick={togglePick}
        >
          {picking ? 'Picking…' : 'Pick'}
        </button>
      </div>
      {outOfRange.length > 0 && (
        <small className="hint bad">
          Face {outOfRange[0]} does not exist: the model has {faceCount} surface faces.
        </small>
      )}
    </div>
  );
}
