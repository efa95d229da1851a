import { type ReactNode, useId, useState } from 'react';
import { useSweepAction } from '../studies/sweep-action.tsx';

/** Small labelled inputs used across the configuration form. */

/**
 * The small "sweep" beside a numeric input (issue 37): hands the input's label, its text and how it changes
 * the state (`probe`) to the Design study card's Sweep action. Shown only where one is provided (the
 * analysis form, the mesh settings).
 */
export function SweepButton(props: {
  label: string;
  text: string;
  probe: (text: string) => void;
  testId?: string;
  /** the visible text (default "sweep") */
  children?: ReactNode;
}) {
  const sweep = useSweepAction();
  if (!sweep) return null;
  return (
    <button
      type="button"
      className="link sweep-action"
      title={`Sweep ${props.label} in a design study`}
      aria-label={`Sweep ${props.label}`}
      data-testid={props.testId}
      onClick={() => sweep({ label: props.label, text: props.text, probe: props.probe })}
    >
      {props.children ?? 'sweep'}
    </button>
  );
}

export function TextField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  unit?: string;
  placeholder?: string;
  hint?: string;
  invalid?: boolean;
  inputMode?: 'decimal' | 'numeric' | 'text';
  testId?: string;
  /** what the Sweep action changes to find the config number (default onChange) */
  probe?: (value: string) => void;
}) {
  const id = useId();
  const sweep = useSweepAction();
  const numeric = (props.inputMode ?? 'decimal') !== 'text';
  return (
    <div className={`field${props.invalid ? ' field-invalid' : ''}`}>
      {sweep && numeric ? (
        <span>
          <label htmlFor={id}>{props.label}</label>
          <SweepButton
            label={props.label}
            text={props.value}
            probe={props.probe ?? props.onChange}
            testId={props.testId ? `${props.testId}-sweep` : undefined}
          />
        </span>
      ) : (
        <label htmlFor={id}>{props.label}</label>
      )}
      <div className="field-input">
        <input
          id={id}
          value={props.value}
          placeholder={props.placeholder}
          inputMode={props.inputMode ?? 'decimal'}
          spellCheck={false}
          data-testid={props.testId}
          onChange={(e) => props.onChange(e.target.value)}
        />
        {props.unit && <span className="unit">{props.unit}</span>}
      </div>
      {props.hint && <small className="hint">{props.hint}</small>}
    </div>
  );
}

export function Checkbox(props: {
  label: ReactNode;
  checked: boolean;
  onChange: (on: boolean) => void;
  testId?: string;
  disabled?: boolean;
}) {
  return (
    <label className="checkbox">
      <input
        type="checkbox"
        checked={props.checked}
        disabled={props.disabled}
        data-testid={props.testId}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      <span>{props.label}</span>
    </label>
  );
}

export function Slider(props: {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onChange: (value: number) => void;
  display: string;
  testId?: string;
}) {
  const id = useId();
  return (
    <div className="field slider">
      <label htmlFor={id}>
        {props.label} <output>{props.display}</output>
      </label>
      <input
        id={id}
        type="range"
        min={props.min}
        max={props.max}
        step={props.step}
        value={props.value}
        data-testid={props.testId}
        onChange={(e) => props.onChange(Number(e.target.value))}
      />
    </div>
  );
}

export function Select<T extends string | number>(props: {
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
  testId?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        value={String(props.value)}
        data-testid={props.testId}
        onChange={(e) => {
          const picked = props.options.find((o) => String(o.value) === e.target.value);
          if (picked) props.onChange(picked.value);
        }}
      >
        {props.options.map((o) => (
          <option key={String(o.value)} value={String(o.value)}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A typed number bound to a numeric value; keeps the user's text while it is being edited. */
export function NumberField(props: {
  label: string;
  value: number;
  onChange: (value: number) => void;
  unit?: string;
  hint?: string;
  testId?: string;
}) {
  const [text, setText] = useState(String(props.value));
  // an outside change (the slider) replaces the text; text that parses to the value stays as typed
  if (text.trim() !== '' && Number.isFinite(Number(text)) && Number(text) !== props.value) {
    setText(String(props.value));
  }
  return (
    <TextField
      label={props.label}
      unit={props.unit}
      hint={props.hint}
      testId={props.testId}
      value={text}
      probe={(t) => props.onChange(Number(t))}
      invalid={text.trim() !== '' && !Number.isFinite(Number(text))}
      onChange={(t) => {
        setText(t);
        const v = Number(t);
        if (t.trim() !== '' && Number.isFinite(v)) props.onChange(v);
      }}
    />
  );
}
