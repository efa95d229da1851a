import { STUDY_MAX_POINTS, type StudyResponse } from '@fieldline/contracts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { errorText } from '../../api/http.ts';
import { meshingKeys, toBackendConfig } from '../config/to-backend-config.ts';
import { useEnv, useServices } from '../state/EnvironmentContext.tsx';
import { modelSize } from '../upload/UnitsPicker.tsx';
import { openJob } from '../workflows/run-analysis.ts';
import { ConvergenceReportView } from './ConvergenceReportView.tsx';
import { ConvergenceSetup } from './ConvergenceSetup.tsx';
import { type ConvergenceForm, defaultConvergence, toConvergenceSpec } from './convergence-setup.ts';
import { StudyResults } from './StudyResults.tsx';
import { studyConfigOf, sweepConfigOf } from './study-config.ts';
import './study-panel.css';
import { cancelStudy, createStudy, estimateStudy, fetchStudy, studyCsvUrl } from './studies-api.ts';
import {
  numericPaths,
  outputChoices,
  pointCount,
  rowValues,
  type SweepRow,
  tooManyPoints,
  toParameter,
} from './study-setup.ts';

// A study's points finish a fraction of a second apart on a small model: polled every second, its table is
// seen to fill in rather than jump from queued to done.
const POLL_MS = 1000;

/** Keeps `?study=` in the address bar equal to the study on screen (so it can be reopened or shared). */
function showStudyInUrl(id: string | null) {
  const [path, query = ''] = window.location.hash.split('?');
  const params = new URLSearchParams(query);
  if (id) params.set('study', id);
  else params.delete('study');
  const next = params.toString();
  window.history.replaceState(window.history.state, '', `${path}${next ? `?${next}` : ''}`);
}

/**
 * The Study panel (docs/studies.md): sweep any number of the configuration, choose the outputs, see the
 * point count and the estimate, Run Study; then the progress, a table that fills in, CSV, plot, open a point.
 */
export function StudyPanel() {
  const { deps, jobs, store } = useServices();
  const card = useRef<HTMLElement>(null);
  const sweepRequest = useEnv((s) => s.studySweep ?? null);
  const model = useEnv((s) => s.model);
  const form = useEnv((s) => s.form);
  const bodies = useEnv((s) => s.bodies);
  const meshing = useEnv((s) => s.meshing);
  // every number a study can vary: the analysis config's and the meshing options' (meshMaxSize, …)
  const config = useMemo(
    () => (model ? studyConfigOf({ form, bodies, meshing }) : null),
    [model, form, bodies, meshing],
  );
  const analysisType = String(config?.analysisType ?? '');
  const paths = useMemo(() => (config ? numericPaths(config) : []), [config]);
  const [pick, setPick] = useState('');
  const [rows, setRows] = useState<SweepRow[]>([]);
  const [combine, setCombine] = useState<'grid' | 'zip'>('grid');
  const [outputs, setOutputs] = useState<string[]>([]);
  const [extra, setExtra] = useState('');
  const [estimate, setEstimate] = useState<string>('');
  const [error, setError] = useState<string>('');
  const initial = new URLSearchParams(useLocation().search).get('study');
  const [studyId, setStudyId] = useState<string | null>(initial);
  const [study, setStudy] = useState<StudyResponse | null>(null);
  const choices = useMemo(() => outputChoices(analysisType), [analysisType]);
  const allOutputs = useMemo(
    () => [
      ...outputs,
      ...extra
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ],
    [outputs, extra],
  );
  const meshSettings = useMemo(() => {
    const { meshMaxSize: _max, meshMinSize: _min, ...rest } = meshingKeys(meshing.options);
    return rest;
  }, [meshing.options]);
  const [kind, setKind] = useState<'sweep' | 'convergence'>('sweep');
  const [convergence, setConvergence] = useState<ConvergenceForm | null>(null);
  const conv = useMemo(
    () =>
      convergence ??
      defaultConvergence(
        choices[0] ?? '',
        config?.meshMaxSize,
        model ? modelSize(model.boundingBox, model.mesh.vertices) : null,
      ),
    [convergence, choices, config?.meshMaxSize, model],
  );
  const sweeping = kind === 'sweep';
  const count = sweeping ? pointCount(rows, combine) : toConvergenceSpec(conv).maxPoints;
  const ready = sweeping
    ? rows.length > 0 && allOutputs.length > 0 && !tooManyPoints(count)
    : conv.output !== '';

  const body = useMemo(() => {
    if (!model || !config) return null;
    // with the upload and each triangle's CAD face, points that mesh anew (a mesh size, a convergence study)
    // can be made from the model and find their faces again
    const patches = model.facePatches;
    const mesh_data = {
      ...model.mesh,
      ...(model.uploadId ? { source_upload_id: model.uploadId } : {}),
      ...(patches && patches.length === model.mesh.faces.length ? { face_patches: patches } : {}),
    };
    return sweeping
      ? {
          name: `${model.fileName}: ${rows.map((r) => r.path).join(' × ')}`,
          mesh_data,
          // the meshing options go along when the points mesh anew (a mesh setting swept)
          config: sweepConfigOf(
            { form, bodies, meshing, model },
            rows.map((r) => r.path),
          ),
          parameters: rows.map(toParameter),
          combine,
          outputs: allOutputs,
        }
      : {
          name: `${model.fileName}: mesh convergence of ${conv.output}`,
          mesh_data,
          // each point meshes the upload as Generate Volume Mesh did (mesher, grading, curvature), at the
          // study's size (the sizes are the study's, so the model's own are left out)
          config: { ...toBackendConfig(form, { bodies }), ...meshSettings },
          parameters: [],
          outputs: [conv.output],
          convergence: toConvergenceSpec(conv),
        };
  }, [model, config, rows, combine, allOutputs, sweeping, conv, meshSettings, form, bodies, meshing]);

  // The server's own checks and estimate, shortly after the setup changes.
  useEffect(() => {
    if (!body || !ready) {
      setEstimate('');
      return;
    }
    const timer = setTimeout(async () => {
      const res = await estimateStudy(body);
      if (res.ok) {
        setEstimate((res.json as { message: string }).message);
        setError('');
      } else {
        setEstimate('');
        setError(errorText(res.json) || `HTTP ${res.status}`);
      }
    }, 400);
    return () => clearTimeout(timer);
  }, [body, ready]);

  // The study on screen is polled until every point has finished.
  useEffect(() => {
    if (!studyId) return;
    showStudyInUrl(studyId);
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      const s = await fetchStudy(studyId).catch(() => null);
      if (stop) return;
      if (s) setStudy(s);
      const p = s?.progress;
      const done = s && s.status !== 'running' && p && p.completed + p.failed + p.cancelled === p.total;
      if (!done) timer = setTimeout(poll, POLL_MS);
    };
    void poll();
    return () => {
      stop = true;
      if (timer) clearTimeout(timer);
    };
  }, [studyId]);

  const addSweep = (path = pick) => {
    const entry = paths.find((p) => p.path === path);
    if (!entry || rows.some((r) => r.path === entry.path)) return;
    const v = entry.value;
    setRows([
      ...rows,
      {
        path: entry.path,
        mode: 'range',
        values: String(v),
        from: v === 0 ? 1 : v,
        to: v === 0 ? 5 : 2 * v,
        steps: 5,
        scale: 'linear',
      },
    ]);
  };
  // Sweep pressed beside a numeric input of the form: its config path joins the swept settings
  const handled = useRef(sweepRequest?.seq ?? 0);
  useEffect(() => {
    if (!sweepRequest || sweepRequest.seq === handled.current) return;
    handled.current = sweepRequest.seq;
    if (sweepRequest.path) {
      addSweep(sweepRequest.path);
      setPick(sweepRequest.path);
    }
    card.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  });
  const patchRow = (i: number, patch: Partial<SweepRow>) =>
    setRows(rows.map((r, k) => (k === i ? { ...r, ...patch } : r)));

  const run = async () => {
    if (!body) return;
    setError('');
    const res = await createStudy(body);
    if (res.status === 401) {
      await deps.auth.sendToLogin();
      return;
    }
    if (!res.ok) {
      setError(errorText(res.json) || `HTTP ${res.status}`);
      return;
    }
    setStudy(null);
    setStudyId((res.json as { study_id: string }).study_id);
  };

  const progress = study?.progress;
  return (
    <section className="env-card study-panel" data-testid="study-panel" aria-label="Study" ref={card}>
      <h3>Design study</h3>
      {config && (
        <>
          <fieldset className="study-kind">
            <label>
              <input
                type="radio"
                name="study-kind"
                data-testid="study-kind-sweep"
                checked={sweeping}
                onChange={() => setKind('sweep')}
              />{' '}
              Sweep settings
            </label>{' '}
            <label>
              <input
                type="radio"
                name="study-kind"
                data-testid="study-kind-convergence"
                checked={!sweeping}
                onChange={() => setKind('convergence')}
              />{' '}
              Mesh convergence
            </label>
          </fieldset>
          {!sweeping && (
            <ConvergenceSetup
              value={conv}
              onChange={setConvergence}
              outputs={choices}
              units={model?.mesh.units ?? 'model units'}
              curvatureRefinement={meshSettings.meshCurvatureRefinement !== false}
            />
          )}
          {sweeping && (
            <>
              <div className="row">
                <select
                  value={pick}
                  data-testid="study-sweep-path"
                  onChange={(e) => setPick(e.target.value)}
                  aria-label="Setting to sweep"
                >
                  <option value="">Choose a setting…</option>
                  {paths.map((p) => (
                    <option key={p.path} value={p.path}>
                      {p.path} = {p.value}
                    </option>
                  ))}
                </select>{' '}
                <button type="button" data-testid="study-sweep" disabled={!pick} onClick={() => addSweep()}>
                  Sweep
                </button>
              </div>
              {sweepRequest?.note && (
                <p className="muted small" data-testid="study-sweep-note">
                  {sweepRequest.note}{' '}
                  <button
                    type="button"
                    className="link"
                    onClick={() => store.set({ studySweep: { ...sweepRequest, note: undefined } })}
                  >
                    OK
                  </button>
                </p>
              )}
              {rows.length === 0 && (
                <p className="muted small">Or press “sweep” beside a number of the form above.</p>
              )}
              {rows.map((r, i) => (
                <div key={r.path} className="study-row" data-testid="study-parameter">
                  <strong>{r.path}</strong>{' '}
                  <select
                    value={r.mode}
                    aria-label="How the values are given"
                    onChange={(e) => patchRow(i, { mode: e.target.value as SweepRow['mode'] })}
                  >
                    <option value="range">from … to</option>
                    <option value="values">values</option>
                  </select>{' '}
                  {r.mode === 'values' ? (
                    <input
                      aria-label="Values"
                      data-testid="study-values"
                      value={r.values}
                      onChange={(e) => patchRow(i, { values: e.target.value })}
                    />
                  ) : (
                    <>
                      <input
                        aria-label="From"
                        data-testid="study-from"
                        type="number"
                        value={r.from}
                        onChange={(e) => patchRow(i, { from: Number(e.target.value) })}
                      />
                      {' to '}
                      <input
                        aria-label="To"
                        data-testid="study-to"
                        type="number"
                        value={r.to}
                        onChange={(e) => patchRow(i, { to: Number(e.target.value) })}
                      />
                      {' in '}
                      <input
                        aria-label="Steps"
                        data-testid="study-steps"
                        type="number"
                        min={1}
                        max={STUDY_MAX_POINTS}
                        value={r.steps}
                        onChange={(e) => patchRow(i, { steps: Number(e.target.value) })}
                      />
                      {' steps '}
                      <select
                        value={r.scale}
                        aria-label="Scale"
                        onChange={(e) => patchRow(i, { scale: e.target.value as SweepRow['scale'] })}
                      >
                        <option value="linear">linear</option>
                        <option value="log">log</option>
                      </select>
                    </>
                  )}{' '}
                  <button
                    type="button"
                    className="link"
                    onClick={() => setRows(rows.filter((_, k) => k !== i))}
                  >
                    Remove
                  </button>
                  <div className="muted small">
                    {rowValues(r)
                      .map((v) => Number(v.toPrecision(6)))
                      .join(', ')}
                  </div>
                </div>
              ))}
              {rows.length > 1 && (
                <label>
                  Combine{' '}
                  <select
                    value={combine}
                    data-testid="study-combine"
                    onChange={(e) => setCombine(e.target.value as 'grid' | 'zip')}
                  >
                    <option value="grid">every combination (grid)</option>
                    <option value="zip">side by side (zip)</option>
                  </select>
                </label>
              )}
              <fieldset className="study-outputs">
                <legend>Outputs</legend>
                {choices.map((o) => (
                  <label key={o} className="check">
                    <input
                      type="checkbox"
                      data-testid={`study-output-${o}`}
                      checked={outputs.includes(o)}
                      onChange={(e) =>
                        setOutputs(e.target.checked ? [...outputs, o] : outputs.filter((x) => x !== o))
                      }
                    />{' '}
                    {o}
                  </label>
                ))}
                <input
                  aria-label="More outputs"
                  placeholder="frequencies[0], |S21|@10e9"
                  value={extra}
                  onChange={(e) => setExtra(e.target.value)}
                />
              </fieldset>
            </>
          )}
          <p data-testid="study-count">
            {sweeping ? '' : 'up to '}
            {count} {sweeping ? 'point' : 'mesh'}
            {count === 1 ? '' : sweeping ? 's' : 'es'}
            {tooManyPoints(count) ? ` — at most ${STUDY_MAX_POINTS}` : ''}
            {estimate ? ` · ${estimate}` : ''}
          </p>
          <button
            type="button"
            className="primary"
            data-testid="run-study"
            disabled={!ready}
            onClick={() => void run()}
          >
            Run Study
          </button>
        </>
      )}
      {error && (
        <p className="error" role="alert" data-testid="study-error">
          {error}
        </p>
      )}
      {studyId && study && progress && (
        <div data-testid="study-progress-block">
          <p>
            <strong>{study.name}</strong> — {study.status}: {progress.completed} completed, {progress.failed}{' '}
            failed, {progress.running + progress.queued + progress.meshing} running, {progress.pending}{' '}
            waiting
          </p>
          <progress max={100} value={progress.percent} data-testid="study-progress" />
          <div className="row">
            <a href={studyCsvUrl(study.study_id)} download data-testid="study-csv">
              Download CSV
            </a>{' '}
            {study.status === 'running' && (
              <button type="button" className="link" onClick={() => void cancelStudy(study.study_id)}>
                Cancel study
              </button>
            )}{' '}
            <button
              type="button"
              className="link"
              onClick={() => {
                setStudyId(null);
                setStudy(null);
                showStudyInUrl(null);
              }}
            >
              Close
            </button>
          </div>
          {study.convergence && <ConvergenceReportView report={study.convergence} />}
          <StudyResults study={study} onOpen={(jobId) => void openJob(deps, jobId, jobs.start('analysis'))} />
        </div>
      )}
    </section>
  );
}
