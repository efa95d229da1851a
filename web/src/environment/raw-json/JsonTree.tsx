import { useState } from 'react';

const PAGE = 100;

function preview(value: unknown): string {
  if (Array.isArray(value)) return `Array(${value.length})`;
  if (value && typeof value === 'object') return `{${Object.keys(value).length} keys}`;
  if (typeof value === 'string')
    return JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value);
  return String(value);
}

/**
 * A lazily expanded JSON tree: children render only when opened, and long arrays/objects show
 * 100 entries at a time, so a results file of any size opens at once.
 */
export function JsonNode(props: { name: string; value: unknown; depth?: number }) {
  const depth = props.depth ?? 0;
  const { value } = props;
  const isContainer = value !== null && typeof value === 'object';
  const [open, setOpen] = useState(depth === 0);
  const [shown, setShown] = useState(PAGE);
  if (!isContainer) {
    return (
      <div className="json-leaf">
        <span className="json-key">{props.name}:</span>{' '}
        <span className={`json-${typeof value}`}>{preview(value)}</span>
      </div>
    );
  }
  const entries = Array.isArray(value) ? null : Object.entries(value as Record<string, unknown>);
  const length = Array.isArray(value) ? value.length : (entries?.length ?? 0);
  return (
    <div className="json-node">
      <button type="button" className="json-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? '▾' : '▸'} <span className="json-key">{props.name}</span>{' '}
        <span className="muted">{preview(value)}</span>
      </button>
      {open && (
        <div className="json-children">
          {Array.from({ length: Math.min(shown, length) }, (_, i) => {
            const [k, v] = entries ? (entries[i] as [string, unknown]) : [String(i), (value as unknown[])[i]];
            return <JsonNode key={k} name={k} value={v} depth={depth + 1} />;
          })}
          {length > shown && (
            <button type="button" className="link" onClick={() => setShown(shown + PAGE)}>
              Show {Math.min(PAGE, length - shown)} more of {length - shown} remaining
            </button>
          )}
        </div>
      )}
    </div>
  );
}
