import type { UiError } from '../state/environment-state.ts';

export function ErrorBox({ error, testId }: { error: UiError; testId?: string }) {
  return (
    <div className="message error" role="alert" data-testid={testId}>
      <strong>{error.title}</strong>
      {error.detail && <p>{error.detail}</p>}
      {error.notice && <p className="notice-extra">{error.notice}</p>}
    </div>
  );
}

export function Notice({
  children,
  tone = 'info',
  testId,
}: {
  children: React.ReactNode;
  tone?: 'info' | 'warn' | 'ok';
  testId?: string;
}) {
  return (
    <div className={`message ${tone}`} data-testid={testId}>
      {children}
    </div>
  );
}
