import { useEffect, useState } from 'react';
import { dataUrlToBlob, saveBlob } from '../results/save-blob.ts';
import { useServices } from '../state/EnvironmentContext.tsx';
import { RENDER_MODES } from '../visualization/viewer-modes.ts';

type Axis = 'x' | 'y' | 'z';

/**
 * Main/section switch, zoom to fit, reset view, fullscreen, render mode, export; section mode adds the
 * slice lock, "Wheel scrubs" and the vertical offset slider (range from viewer-event section-range).
 */
export function BottomBar(props: { onFullscreen: () => void }) {
  const { bridge } = useServices();
  const [mode, setMode] = useState<'main' | 'section'>('main');
  const [renderMode, setRenderMode] = useState(0);
  const [locked, setLocked] = useState(false);
  const [wheel, setWheel] = useState(false);
  const [axis, setAxis] = useState<Axis>('z');
  const [range, setRange] = useState({ min: 0, max: 1, offset: 0.5 });

  useEffect(
    () =>
      bridge.onMessage((m) => {
        if (m.type !== 'viewer-event') return;
        if (m.event.kind === 'section-range')
          setRange({ min: m.event.min, max: m.event.max, offset: m.event.offset });
        if (m.event.kind === 'png') {
          saveBlob(dataUrlToBlob(m.event.dataUrl), 'fieldline_view.png');
        }
      }),
    [bridge],
  );

  const switchMode = (next: 'main' | 'section') => {
    setMode(next);
    bridge.call('setViewerMode', next);
  };
  const step = (range.max - range.min) / 200 || 0.001;
  return (
    <footer className="bottombar" data-testid="bottom-bar">
      <div className="segmented">
        <button
          type="button"
          className={mode === 'main' ? 'on' : ''}
          onClick={() => switchMode('main')}
          data-testid="mode-main"
        >
          Main
        </button>
        <button
          type="button"
          className={mode === 'section' ? 'on' : ''}
          onClick={() => switchMode('section')}
          data-testid="mode-section"
        >
          Section
        </button>
      </div>
      <button type="button" onClick={() => bridge.call('zoomToFit')}>
        Zoom to fit
      </button>
      <button type="button" onClick={() => bridge.call('resetView')}>
        Reset view
      </button>
      <button type="button" onClick={props.onFullscreen}>
        Fullscreen
      </button>
      <label className="inline">
        Render
        <select
          value={renderMode}
          aria-label="Render mode"
          onChange={(e) => {
            const v = Number(e.target.value);
            setRenderMode(v);
            bridge.call('setRenderMode', v);
          }}
        >
          {RENDER_MODES.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </select>
      </label>
      <button type="button" onClick={() => bridge.call('exportPng')}>
        Export
      </button>
      {mode === 'section' && (
        <div className="section-tools" data-testid="section-tools">
          <button
            type="button"
            className={locked ? 'on' : ''}
            aria-pressed={locked}
            data-testid="slice-lock"
            onClick={() => {
              setLocked(!locked);
              bridge.call('setSectionLock', !locked);
            }}
          >
            {locked ? 'Slice locked' : 'Lock slice'}
          </button>
          <label className="inline">
            <input
              type="checkbox"
              checked={wheel}
              onChange={(e) => {
                setWheel(e.target.checked);
                bridge.call('setWheelScrubs', e.target.checked);
              }}
            />
            Wheel scrubs
          </label>
          <select
            aria-label="Section axis"
            value={axis}
            onChange={(e) => {
              const a = e.target.value as Axis;
              setAxis(a);
              bridge.call('setSectionAxis', a);
            }}
          >
            <option value="x">X</option>
            <option value="y">Y</option>
            <option value="z">Z</option>
          </select>
          <label className="inline offset">
            Offset
            <input
              type="range"
              min={range.min}
              max={range.max}
              step={step}
              value={range.offset}
              aria-label="Section offset"
              data-testid="section-offset"
              onChange={(e) => {
                const offset = Number(e.target.value);
                setRange((r) => ({ ...r, offset }));
                bridge.call('setSectionOffset', offset);
              }}
            />
            <output>{+range.offset.toPrecision(4)}</output>
          </label>
        </div>
      )}
    </footer>
  );
}
