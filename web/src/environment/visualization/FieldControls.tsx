import { ANALYSIS_BOUNDS, type FieldSelection } from '@fieldline/contracts';
import { useEffect, useState } from 'react';
import type { CatalogueSummary } from '../../results-format/index.ts';
import { useEnv, useServices } from '../state/EnvironmentContext.tsx';
import { Checkbox, Select, Slider } from '../ui/fields.tsx';
import { deformationText } from './deformation-text.ts';
import {
  componentOptions,
  type SurfaceOption,
  streamlineFieldFor,
  surfaceOptions,
} from './surface-options.ts';
import { COLOR_MAPS } from './viewer-modes.ts';

const vs = ANALYSIS_BOUNDS.vectorScale;

/**
 * Surface field display, vector fields and the deformed shape (spec 001 §2 right panel). The field list is
 * the result's catalogue (docs/multiphysics.md §1): EM results offer the spec's four modes first.
 */
export function FieldControls() {
  const catalogue = useEnv((s) => s.catalogue);
  // a new result starts from its own default field and deformation
  const key = catalogue
    ? `${catalogue.fields.map((f) => `${f.name}:${f.label}`).join('|')}@${catalogue.deformation?.autoScale ?? ''}`
    : 'none';
  return <FieldControlsFor key={key} catalogue={catalogue} />;
}

function FieldControlsFor({ catalogue }: { catalogue: CatalogueSummary | null }) {
  const { bridge } = useServices();
  const options = surfaceOptions(catalogue?.fields ?? null);
  const [choice, setChoice] = useState(options[0]?.value ?? 'mode:0');
  const [component, setComponent] = useState(-1);
  const [scale, setScale] = useState(1);
  const [density, setDensity] = useState(0.3);
  const [colorMap, setColorMap] = useState<string>('viridis');
  const [log, setLog] = useState(false);
  const [streamlines, setStreamlines] = useState(false);
  const deformation = catalogue?.deformation ?? null;
  const [deformed, setDeformed] = useState(!!deformation);
  const [exaggeration, setExaggeration] = useState(deformation?.autoScale ?? 1);
  const option = options.find((o) => o.value === choice) ?? options[0];
  const components = option ? componentOptions(option, catalogue?.fields ?? []) : [];

  const show = (o: SurfaceOption | undefined, c: number) => {
    if (!o) return;
    if (o.mode !== undefined) bridge.call('setFieldMode', o.mode);
    else {
      const selection: FieldSelection =
        c >= 0 ? { name: o.name, display: 'component', component: c } : { name: o.name, display: o.display };
      bridge.call('setField', selection);
    }
  };
  // the viewer starts with what these controls show (sent once per result; queued until viewer-ready)
  // biome-ignore lint/correctness/useExhaustiveDependencies: initial values only
  useEffect(() => {
    show(option, -1);
    bridge.call('setVectorScale', scale);
    bridge.call('setVectorDensity', density);
    bridge.call('setColorMap', colorMap);
    bridge.call('setDeformation', {
      field: deformation && deformed ? deformation.field : null,
      scale: exaggeration,
    });
  }, [bridge]);

  const streamlineField = streamlineFieldFor(option, catalogue?.fields ?? null);
  return (
    <div className="viz-group" data-testid="field-controls">
      <Select<string>
        label="Surface field"
        value={choice}
        options={options}
        testId="field-mode"
        onChange={(v) => {
          setChoice(v);
          setComponent(-1);
          show(
            options.find((o) => o.value === v),
            -1,
          );
          if (streamlines) {
            const field = streamlineFieldFor(
              options.find((o) => o.value === v),
              catalogue?.fields ?? null,
            );
            if (field) bridge.call('setStreamlines', { enabled: true, seeds: 200, field });
          }
        }}
      />
      {components.length > 0 && (
        <Select<number>
          label="Show"
          value={component}
          options={components}
          testId="field-component"
          onChange={(c) => {
            setComponent(c);
            show(option, c);
          }}
        />
      )}
      {deformation && (
        <>
          <Checkbox
            label="Deformed shape"
            checked={deformed}
            onChange={(on) => {
              setDeformed(on);
              bridge.call('setDeformation', { field: on ? deformation.field : null, scale: exaggeration });
            }}
          />
          <Slider
            label="Exaggeration"
            min={0}
            // up to 4× the automatic size; a computed displacement also reaches true scale (× 1), a mode
            // shape (normalised, no true scale) does not stretch the slider to a metre per unit
            max={Math.max(deformation.unit === 'm' ? 1 : 0, 4 * deformation.autoScale)}
            step={Math.max(1e-6, deformation.autoScale / 50)}
            value={exaggeration}
            display={deformationText(deformation, exaggeration).drawn}
            onChange={(v) => {
              setExaggeration(v);
              if (deformed) bridge.call('setDeformation', { field: deformation.field, scale: v });
            }}
          />
          <p className="muted small deformation-note" data-testid="deformation-note">
            {deformationText(deformation, exaggeration).note}
          </p>
        </>
      )}
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
          {streamlineField && (
            <Checkbox
              label="Streamlines"
              checked={streamlines}
              onChange={(on) => {
                setStreamlines(on);
                bridge.call('setStreamlines', { enabled: on, seeds: 200, field: streamlineField });
              }}
            />
          )}
        </div>
      </div>
    </div>
  );
}
