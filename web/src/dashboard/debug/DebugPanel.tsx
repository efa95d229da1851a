import { BILLING_MESSAGES, type RecentTask } from '@fieldline/contracts';
import { useState } from 'react';
import { formatDate } from '../../billing/usage-rules.ts';
import {
  type DebugOutcome,
  debugAwsConnection,
  debugDatabase,
  listRecentTasks,
  taskId,
  taskName,
  testTask,
} from './debug-api.ts';

type Busy = 'database' | 'aws' | 'tasks' | 'test' | null;

/** Spec 000 §2 debug panel "AWS Batch Testing & Debug": the compute backend seen from the dashboard. */
export function DebugPanel() {
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<{ title: string; data: unknown } | null>(null);
  const [tasks, setTasks] = useState<RecentTask[] | null>(null);
  const [taskInput, setTaskInput] = useState('');

  const run = async (kind: Exclude<Busy, null>, title: string, call: () => Promise<DebugOutcome>) => {
    setBusy(kind);
    setError(null);
    const outcome = await call();
    setBusy(null);
    if (outcome.ok) setResult({ title, data: outcome.data });
    else setError(outcome.message);
  };

  const listTasks = async () => {
    setBusy('tasks');
    setError(null);
    const outcome = await listRecentTasks();
    setBusy(null);
    if (outcome.ok) setTasks(outcome.tasks);
    else setError(outcome.message);
  };

  const testJob = () => {
    const ref = taskInput.trim();
    if (!ref) {
      window.alert(BILLING_MESSAGES.enterTaskId);
      return;
    }
    void run('test', `Job ${taskId(ref)}`, () => testTask(ref));
  };

  return (
    <section className="panel-card dash-debug" aria-labelledby="debug-title">
      <header className="dash-section-head">
        <h2 id="debug-title">AWS Batch Testing &amp; Debug</h2>
      </header>
      <p className="muted">
        Checks the compute backend your simulations run on: the job table, the queues and your recent jobs.
      </p>
      <div className="button-row">
        <button
          type="button"
          disabled={busy !== null}
          onClick={() => void run('database', 'Database', debugDatabase)}
        >
          {busy === 'database' ? 'Checking...' : 'Debug Database'}
        </button>
        <button
          type="button"
          disabled={busy !== null}
          onClick={() => void run('aws', 'Compute connection', debugAwsConnection)}
        >
          {busy === 'aws' ? 'Checking...' : 'Debug AWS Connection'}
        </button>
        <button type="button" disabled={busy !== null} onClick={() => void listTasks()}>
          {busy === 'tasks' ? 'Loading...' : 'List Recent Jobs'}
        </button>
      </div>

      {error && (
        <p className="banner banner-error dash-debug-error" role="alert">
          {error}
        </p>
      )}
      {result && <DebugResult title={result.title} data={result.data} />}

      <div className="dash-debug-test">
        <label htmlFor="debug-task-input">Test Specific Job</label>
        <div className="dash-inline-form">
          <input
            id="debug-task-input"
            type="text"
            value={taskInput}
            placeholder="Enter a batch job ID or task ARN"
            onChange={(e) => setTaskInput(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') testJob();
            }}
          />
          <button type="button" className="primary" disabled={busy !== null} onClick={testJob}>
            {busy === 'test' ? 'Testing...' : 'Test Job'}
          </button>
        </div>
      </div>

      {tasks && (
        <div className="dash-debug-tasks">
          <h3>Recent Jobs</h3>
          {tasks.length === 0 ? (
            <p className="muted">No jobs yet.</p>
          ) : (
            <ul className="dash-task-list">
              {tasks.map((task) => (
                <TaskRow key={task.taskArn} task={task} onPick={(arn) => setTaskInput(arn)} />
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}

function TaskRow({ task, onPick }: { task: RecentTask; onPick(arn: string): void }) {
  const id = taskId(task.taskArn);
  return (
    <li className="dash-task" data-testid="debug-task">
      <div className="dash-task-main">
        <strong>{taskName(task.taskDefinitionArn)}</strong>
        <code className="dash-task-id">{id}</code>
        <span className={`dash-badge dash-task-status dash-task-${task.lastStatus.toLowerCase()}`}>
          {task.lastStatus}
        </span>
      </div>
      <div className="dash-task-times muted">
        <span>Started: {task.startedAt ? formatDate(task.startedAt, true) : 'N/A'}</span>
        <span>Stopped: {task.stoppedAt ? formatDate(task.stoppedAt, true) : 'N/A'}</span>
      </div>
      <button type="button" onClick={() => onPick(id)}>
        Test This Job
      </button>
    </li>
  );
}

/** The fields the spec names, when present, and the raw answer behind a disclosure. */
function DebugResult({ title, data }: { title: string; data: unknown }) {
  const d = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
  const queues = Array.isArray(d.job_queues) ? d.job_queues : null;
  const rows: [string, string][] = [];
  if ('table_exists' in d) rows.push(['Table exists', d.table_exists ? 'Yes' : 'No']);
  if ('user_logs_count' in d) rows.push(['Your simulation logs', String(d.user_logs_count)]);
  if ('all_logs_count' in d) rows.push(['Total simulation logs', String(d.all_logs_count)]);
  if ('aws_region' in d) rows.push(['AWS region', String(d.aws_region)]);
  if ('queue_name' in d) rows.push(['Queue name', String(d.queue_name)]);
  if (queues)
    rows.push([
      'Available queues',
      queues.length === 0 ? 'None' : queues.map((q) => queueLabel(q)).join(', '),
    ]);
  return (
    <div className="dash-debug-result" data-testid="debug-result">
      <h3>{title}</h3>
      {rows.length > 0 && (
        <dl className="dash-facts">
          {rows.map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      )}
      <details className="dash-raw">
        <summary>Raw data</summary>
        <pre>{JSON.stringify(data, null, 2)}</pre>
      </details>
    </div>
  );
}

function queueLabel(q: unknown): string {
  if (typeof q === 'string') return q;
  if (q && typeof q === 'object') {
    const r = q as Record<string, unknown>;
    const name = r.jobQueueName ?? r.name;
    const state = r.status ?? r.state;
    if (typeof name === 'string') return typeof state === 'string' ? `${name} (${state})` : name;
  }
  return JSON.stringify(q);
}
