import type { StudyPoint } from '@fieldline/contracts';
import { useEffect, useMemo, useState } from 'react';
import type { ViewerPayload } from '../../../results-format/index.ts';
import { useServices } from '../../state/EnvironmentContext.tsx';
import { binaryResultsToViewer } from '../../viewer-bridge/to-viewer-payload.ts';
import { ComparePane } from './ComparePane.tsx';
import { CameraLink } from './camera-link.ts';
import {
  comparableFields,
  differenceFrames,
  differencePayload,
  type Range,
  sharedRange,
  whyNotSameMesh,
} from './compare-fields.ts';
import './compare.css';

// 6.9e+10 rather than 69000000000
const fmt = (v: number) => {
  const r = Number(v.toPrecision(6));
  return Math.abs(r) >= 1e5 || (Math.abs(r) < 1e-3 && r !== 0) ? r.toExponential() : String(r);
};

/** "point 3: forceLoads[0].force[2] = -500, …youngsModulus = 6.9e+10" */
export function pointTitle(letter: string, p: StudyPoint): string {
  const settings = Object.entries(p.parameters).map(([path, v]) => `${path} = ${fmt(v)}`);
  return `${letter}: point ${p.index}${settings.length ? ` — ${settings.join(', ')}` : ''}`;
}

type Loaded = { payloads: [ViewerPayload, ViewerPayload] } | { error: string } | null;

/**
 * Two study points compared (issue 37): side by side in two viewer panes with linked cameras and one legend
 * range for the chosen field, or as the difference field A − B on one pane when both ran on one mesh. The
 * results come as results.bin (typed arrays), as the main viewer's do.
 */
export function ComparePoints(props: { points: [StudyPoint, StudyPoint]; onClose: () => void }) {
  const { deps } = useServices();
  const [a, b] = props.points;
  const [loaded, setLoaded] = useState<Loaded>(null);
  const [mode, setMode] = useState<'side' | 'difference'>('side');
  const [field, setField] = useState('');
  const [ranges, setRanges] = useState<Record<string, Range | undefined>>({});
  const link = useMemo(() => new CameraLink(), []);

  useEffect(() => {
    let live = true;
    void (async () => {
      const buffers = await Promise.all(
        [a, b].map((p) => (p.job_id ? deps.api.resultsBinary(p.job_id) : null)),
      );
      if (!live) return;
      const missing = [a, b].filter((_, i) => !buffers[i]).map((p) => p.index);
      if (missing.length > 0) {
        setLoaded({
          error: `No binary results for point ${missing.join(' and ')} (results.bin): they cannot be compared here.`,
        });
        return;
      }
      try {
        const payloads = buffers.map((buf) => binaryResultsToViewer(buf as ArrayBuffer)) as [
          ViewerPayload,
          ViewerPayload,
        ];
        setLoaded({ payloads });
      } catch (err) {
        setLoaded({ error: `The results could not be read: ${(err as Error).message}` });
      }
    })();
    return () => {
      live = false;
    };
  }, [a, b, deps.api]);

  const payloads = loaded && 'payloads' in loaded ? loaded.payloads : null;
  const fields = useMemo(() => (payloads ? comparableFields(...payloads) : []), [payloads]);
  useEffect(() => {
    if (!fields.includes(field) && fields[0]) setField(fields[0]);
  }, [fields, field]);
  const notSameMesh = useMemo(() => (payloads ? whyNotSameMesh(...payloads) : null), [payloads]);
  const difference = useMemo(
    () => (payloads && notSameMesh === null ? differencePayload(...payloads) : null),
    [payloads, notSameMesh],
  );
  // whether the difference animates frame by frame, and why not
  const framesNote = useMemo(
    () =>
      payloads && difference
        ? differenceFrames(payloads[0], payloads[1], difference.fields ?? {}).note
        : null,
    [payloads, difference],
  );
  useEffect(() => {
    if (notSameMesh !== null && mode === 'difference') setMode('side');
  }, [notSameMesh, mode]);

  // one legend range for both panes: from each pane's own data range of the chosen field
  const rangeA = ranges[`A|${field}`];
  const rangeB = ranges[`B|${field}`];
  const common = useMemo(() => (rangeA && rangeB ? sharedRange([rangeA, rangeB]) : null), [rangeA, rangeB]);
  const reportRange = (pane: 'A' | 'B') => (name: string, range: Range) =>
    setRanges((r) => {
      const key = `${pane}|${name}`;
      const old = r[key];
      return old && old.min === range.min && old.max === range.max ? r : { ...r, [key]: range };
    });

  useEffect(() => {
    const close = (e: KeyboardEvent) => {
      if (e.key === 'Escape') props.onClose();
    };
    window.addEventListener('keydown', close);
    return () => window.removeEventListener('keydown', close);
  }, [props.onClose]);

  return (
    <div
      className="compare-points"
      role="dialog"
      aria-label="Compare two points"
      data-testid="compare-points"
    >
      <header className="compare-head">
        <h2>
          Compare point {a.index} and point {b.index}
        </h2>
        <label>
          Field{' '}
          <select value={field} data-testid="compare-field" onChange={(e) => setField(e.target.value)}>
            {fields.map((f) => (
              <option key={f} value={f}>
                {payloads?.[0].fields?.[f]?.label ?? f}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="compare-mode">
          <label>
            <input
              type="radio"
              name="compare-mode"
              data-testid="compare-side"
              checked={mode === 'side'}
              onChange={() => setMode('side')}
            />{' '}
            Side by side
          </label>
          <label title={notSameMesh ?? undefined}>
            <input
              type="radio"
              name="compare-mode"
              data-testid="compare-difference"
              checked={mode === 'difference'}
              disabled={notSameMesh !== null}
              onChange={() => setMode('difference')}
            />{' '}
            Difference A − B
          </label>
        </fieldset>
        <button type="button" data-testid="compare-close" onClick={props.onClose}>
          Close
        </button>
      </header>
      {notSameMesh && (
        <p className="muted small" data-testid="compare-no-difference">
          {notSameMesh}
        </p>
      )}
      {loaded === null && <p className="muted">Loading the two points’ results…</p>}
      {loaded && 'error' in loaded && (
        <p className="error" role="alert" data-testid="compare-error">
          {loaded.error}
        </p>
      )}
      {payloads && mode === 'side' && (
        <div className="compare-panes">
          <ComparePane
            testId="compare-pane-a"
            title={pointTitle('A', a)}
            payload={payloads[0]}
            field={field}
            range={common}
            link={link}
            onDataRange={reportRange('A')}
          />
          <ComparePane
            testId="compare-pane-b"
            title={pointTitle('B', b)}
            payload={payloads[1]}
            field={field}
            range={common}
            link={link}
            onDataRange={reportRange('B')}
          />
        </div>
      )}
      {difference && mode === 'difference' && framesNote && (
        <p className="muted small" data-testid="compare-frames-note">
          {framesNote}
        </p>
      )}
      {difference && mode === 'difference' && (
        <div className="compare-panes">
          <ComparePane
            testId="compare-pane-difference"
            title={`A − B: point ${a.index} minus point ${b.index}${difference.animation ? `, frame by frame (${difference.animation.frames.length} frames)` : ''}`}
            payload={difference}
            field={field}
            range={null}
            link={link}
            animated
          />
        </div>
      )}
    </div>
  );
}
