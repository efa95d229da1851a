import { type ReactNode, useState } from 'react';

/** A collapsible group of the configuration form or the results panel. */
export function Section(props: {
  title: string;
  children: ReactNode;
  defaultOpen?: boolean;
  badge?: ReactNode;
  testId?: string;
}) {
  const [open, setOpen] = useState(props.defaultOpen ?? false);
  return (
    <section className={`env-section${open ? ' open' : ''}`} data-testid={props.testId}>
      <button type="button" className="section-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="chevron" aria-hidden>
          ▸
        </span>
        <span className="section-title">{props.title}</span>
        {props.badge && <span className="section-badge">{props.badge}</span>}
      </button>
      {open && <div className="section-body">{props.children}</div>}
    </section>
  );
}
