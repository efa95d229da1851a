import { useEnv } from '../state/EnvironmentContext.tsx';
import { KeyValueTable } from '../ui/KeyValueTable.tsx';
import { Notice } from '../ui/Messages.tsx';
import { runSettingsSummary } from './run-settings.ts';

/** "Run settings": what produced the results shown, and whether the form was restored from a file. */
export function RunSettings({ config }: { config: Record<string, unknown> | null }) {
  const restore = useEnv((s) => s.formRestore);
  if (!config) return null;
  return (
    <div className="run-settings" data-testid="run-settings">
      <h3>Run settings</h3>
      <KeyValueTable rows={runSettingsSummary(config)} />
      {restore && (
        <p className="small muted" data-testid="form-restored">
          The configuration form holds these settings, read from {restore.fileName}.
        </p>
      )}
      {restore?.notice && (
        <Notice tone="warn" testId="form-restore-notice">
          {restore.notice}
        </Notice>
      )}
    </div>
  );
}
