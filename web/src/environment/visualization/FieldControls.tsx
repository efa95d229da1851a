import { ANALYSIS_BOUNDS } from '@fieldline/contracts';
import { useEffect, useState } from 'react';
import { useServices } from '../state/EnvironmentContext.tsx';
import { Checkbox, Select, Slider } from '../ui/fields.tsx';
import { COLOR_MAPS, SURFACE_FIELD_MODES } from './viewer-modes.ts';

const vs = ANALYSIS_BOUNDS.vectorScale;

/** Surface field display and vector fields (spec 001 §2 right panel). */
export function FieldControls() {
  const { bridge } = useServices();
  const [mode, setMode] = useState(0);
  const [scale, setScale] = useState(1);
  const [density, setDensity] = useState(0.3);
  const [colorMap, setColorMap] = useState<string>('viridis');
  const [log, setLog] = useState(false);
  const [streamlines, setStreamlines] = useState(false);
  // the viewer starts with what these controls show (sent once; queued until viewer-ready)
  // biome-ignore lint/correctness/useExhaustiveDependencies: initial values only
  useEffect(() => {
    bridge.call('setFieldMode', mode);
    bridge.call('setVectorScale', scale);
    bridge.call('setVectorDensity', density);
    bridge.call('setColorMap', colorMap);
  }, [bridge]);
  return (
    <div className="viz-group" data-testid="field-controls">
      <Select<number>
        label="Surface field"
        value={mode}
        options={SURFACE_FIELD_MODES}
        testId="field-mode"
        onChange={(v) => {
          setMode(v);
          bridge.call('setFieldMode', v);
        }}
      />
      <Slider
        label="Vector scale"
        min={vs.min}
        max={vs.max}
        step={0.1}
        value={scale}
        display={scale.toFixed(1)}
        onChange={(v) => {
          setScale(v);
          bridge.call('setVectorScale', v);
        }}
      />
      <Slider
        label="Vector density"
        min={0.05}
        max={1}
        step={0.05}
        value={density}
        display={`${Math.round(density * 100)} %`}
        onChange={(v) => {
          setDensity(v);
          bridge.call('setVectorDensity', v);
        }}
      />
      <div className="row2">
        <Select<string>
          label="Colour map"
          value={colorMap}
          options={COLOR_MAPS}
          onChange={(v) => {
            setColorMap(v);
            bridge.call('setColorMap', v);
          }}
        />
        <div className="field checks">
          <Checkbox
            label="Log scale"
            checked={log}
            onChange={(on) => {
              setLog(on);
              bridge.call('setLogScale', on);
            }}
          />
          <Checkbox
            label="Streamlines"
            checked={streamlines}
            onChange={(on) => {
              setStreamlines(on);
              bridge.call('setStreamlines', {
                enabled: on,
                seeds: 200,
                field: mode === 1 || mode === 3 ? 'H' : 'E',
              });
            }}
          />
        </div>
      </div>
    </div>
  );
}
