import type { ReactNode } from 'react';

/**
 * A box (a named region) that scrolls its (wide or long) table. Focusable and named, so a keyboard user can reach it and
 * scroll it with the arrow keys (axe: scrollable-region-focusable).
 */
export function ScrollRegion(props: { label: string; className?: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to be scrolled by keyboard
    <section className={props.className ?? 'table-scroll'} aria-label={props.label} tabIndex={0}>
      {props.children}
    </section>
  );
}
