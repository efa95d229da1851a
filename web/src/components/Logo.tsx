/** The Fieldline mark: field lines between two charges. Decorative; the brand name is text beside it. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false" className="logo">
      <rect width="32" height="32" rx="8" fill="#1f6feb" />
      <path
        d="M8 16c4-9 12-9 16 0M8 16c4 9 12 9 16 0M8 16h16M8 16c4-5 12-5 16 0M8 16c4 5 12 5 16 0"
        fill="none"
        stroke="#cfe3ff"
        strokeWidth="1.4"
        strokeLinecap="round"
      />
      <circle cx="8" cy="16" r="3" fill="#ffb86b" />
      <circle cx="24" cy="16" r="3" fill="#7ee0ff" />
    </svg>
  );
}

export const PRODUCT_NAME = 'Fieldline';

/** Logo and brand name, linking home. */
export function Brand() {
  return (
    <span className="brand">
      <Logo />
      <span className="brand-name">{PRODUCT_NAME}</span>
    </span>
  );
}
