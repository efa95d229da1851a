import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { LOGIN_PATH, type LoginRedirectState, useAuth } from '../auth/index.ts';
import { convertStep } from './api/convert-step.ts';
import { FeaApi } from './api/fea-api.ts';
import { ENVIRONMENT_PATH, isSignedIn } from './auth/guest-check.ts';
import { loadMaterialsLibrary } from './config/materials-library.ts';
import { familyById, isPhysicsFamily } from './families/registry.ts';
import { BottomBar } from './layout/BottomBar.tsx';
import { LeftPanel } from './layout/LeftPanel.tsx';
import { RightPanel } from './layout/RightPanel.tsx';
import { TopBar } from './layout/TopBar.tsx';
import { useJobInUrl } from './persistence/job-in-url.ts';
import { runningJob } from './persistence/running-job.ts';
import { indexedDbWorkStore, snapshotWork } from './persistence/saved-work.ts';
import { RawJsonDrawer } from './raw-json/RawJsonDrawer.tsx';
import { RESULT_MESSAGES } from './results/process-results.ts';
import {
  createJobControls,
  EnvironmentContext,
  type EnvironmentServices,
} from './state/EnvironmentContext.tsx';
import { createEnvironmentStore } from './state/environment-state.ts';
import { useStoreState } from './state/store.ts';
import { ViewerFrame } from './viewer-bridge/ViewerFrame.tsx';
import { ViewerBridge } from './viewer-bridge/viewer-bridge.ts';
import { openJob, resumeAnalysis } from './workflows/run-analysis.ts';
import { showModel } from './workflows/show-model.ts';
import './environment.css';
import { usePageTitle } from '../components/page-title.ts';

/** /environment: upload → mesh → configure → run → results (spec 001). */
export function EnvironmentPage() {
  usePageTitle('Simulator');
  const navigate = useNavigate();
  const query = new URLSearchParams(useLocation().search);
  // the job the page was opened with: Recent Activity's link, or the address a reload kept (job-in-url.ts)
  const openJobId = useRef(query.get('job')).current;
  // #/environment?physics=thermal: the landing page's Example Apps open the simulator on their family
  const physics = query.get('physics');
  const auth = useAuth();
  const authRef = useRef(auth);
  authRef.current = auth;
  const services = useMemo<EnvironmentServices>(() => {
    const store = createEnvironmentStore();
    const bridge = new ViewerBridge();
    const api = new FeaApi();
    const workStore = indexedDbWorkStore();
    return {
      store,
      bridge,
      jobs: createJobControls(),
      deps: {
        store,
        api,
        viewer: bridge,
        convert: (file) => convertStep(file),
        auth: {
          // the auth context, or the server when the context has not seen a sign-in (another tab)
          isSignedIn: async () => {
            if (authRef.current.isAuthenticated) return true;
            const signedIn = await isSignedIn();
            if (signedIn) void authRef.current.refresh();
            return signedIn;
          },
          sendToLogin: async () => {
            const work = snapshotWork(store.get());
            if (work) await workStore.save(work).catch(() => undefined);
            const state: LoginRedirectState = { from: { pathname: ENVIRONMENT_PATH } };
            navigate(LOGIN_PATH, { state });
          },
        },
      },
    };
  }, [navigate]);
  const { store, bridge, jobs } = services;
  // The server's material library (built-ins + MATERIALS_FILE) for the forms' material choices.
  useEffect(() => {
    void loadMaterialsLibrary();
  }, []);
  useEffect(() => {
    if (!isPhysicsFamily(physics)) return;
    // A family may start at a higher element order (linear tetrahedra lock in bending).
    const order = familyById(physics).minMeshOrder;
    store.set((st) => ({ form: { ...st.form, physics, meshOrder: order ?? st.form.meshOrder } }));
  }, [physics, store]);
  const [left, setLeft] = useState(true);
  // below 980 px the visualization panel floats over the viewer: start with only the configuration open
  const [right, setRight] = useState(() => window.innerWidth > 980);
  const [rawOpen, setRawOpen] = useState(false);
  const rawResults = useStoreState(store, (s) => s.rawResults);
  const centre = useRef<HTMLDivElement>(null);

  const [settled, setSettled] = useState(false);
  useJobInUrl(store, settled, (jobId) => {
    jobs.stop('analysis');
    void openJob(services.deps, jobId, jobs.start('analysis'));
  });

  // back from the login page: the same model and configuration
  useEffect(() => {
    let live = true;
    indexedDbWorkStore()
      .take()
      .then((work) => {
        if (!live) return;
        // React renders this after the synchronous start of openJob/resumeAnalysis below has set the job
        setSettled(true);
        if (!work) {
          // a job opened from the dashboard's Recent Activity or kept in the address over a reload; else a
          // reload while an analysis this tab started ran (remembered in localStorage)
          if (openJobId && runningJob()?.jobId !== openJobId)
            void openJob(services.deps, openJobId, jobs.start('analysis'));
          else void resumeAnalysis(services.deps, jobs.start('analysis'));
          return;
        }
        store.set({
          model: work.model,
          bodies: work.bodies,
          form: work.form,
          analysis: {
            status: 'idle',
            progress: 0,
            notice: 'Your model and configuration were restored. Press Run Analysis to continue.',
          },
        });
        showModel(store.get(), bridge);
      })
      .catch(() => setSettled(true));
    return () => {
      live = false;
      jobs.stop('meshing');
      jobs.stop('analysis');
    };
  }, [store, bridge, jobs, services.deps, openJobId]);

  const openRawJson = () => {
    if (rawResults == null) {
      window.alert(RESULT_MESSAGES.noResultsYet);
      return;
    }
    setRawOpen(true);
  };
  const fullscreen = () => {
    const el = centre.current;
    if (!el) return;
    if (document.fullscreenElement) void document.exitFullscreen();
    else void el.requestFullscreen?.().catch(() => bridge.call('toggleFullscreen'));
  };

  return (
    <EnvironmentContext.Provider value={services}>
      <div className={`env${left ? '' : ' no-left'}${right ? '' : ' no-right'}`} data-testid="environment">
        <TopBar panels={{ left, right, setLeft, setRight }} onRawJson={openRawJson} />
        <div className="env-main">
          {left && <LeftPanel />}
          <main className="centre" aria-label="Viewer">
            <ViewerFrame ref={centre} />
          </main>
          {right && <RightPanel />}
        </div>
        <BottomBar onFullscreen={fullscreen} />
        {rawOpen && rawResults != null && (
          <RawJsonDrawer data={rawResults} onClose={() => setRawOpen(false)} />
        )}
      </div>
    </EnvironmentContext.Provider>
  );
}
