/**
 * Transport icons drawn as inline SVG: the media-control characters (⏮ ▶ ⏸ ⏭) are emoji or symbol-font glyphs
 * that systems without such a font draw as empty boxes (qa: the animation buttons on a stock Linux desktop).
 * 16 × 16, filled with the button's text colour; the button carries the accessible name.
 */
const props = {
  width: 16,
  height: 16,
  viewBox: '0 0 16 16',
  fill: 'currentColor',
  focusable: false,
} as const;

export function PlayIcon() {
  return (
    <svg {...props} aria-hidden="true" data-icon="play">
      <path d="M4 2.5v11l9.5-5.5z" />
    </svg>
  );
}

export function PauseIcon() {
  return (
    <svg {...props} aria-hidden="true" data-icon="pause">
      <rect x="3.5" y="2.5" width="3" height="11" rx="0.5" />
      <rect x="9.5" y="2.5" width="3" height="11" rx="0.5" />
    </svg>
  );
}

export function PreviousFrameIcon() {
  return (
    <svg {...props} aria-hidden="true" data-icon="previous">
      <rect x="2.5" y="2.5" width="2" height="11" rx="0.5" />
      <path d="M13.5 2.5v11L5.5 8z" />
    </svg>
  );
}

export function NextFrameIcon() {
  return (
    <svg {...props} aria-hidden="true" data-icon="next">
      <path d="M2.5 2.5v11l8-5.5z" />
      <rect x="11.5" y="2.5" width="2" height="11" rx="0.5" />
    </svg>
  );
}
